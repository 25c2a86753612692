export default function HomePage() {
  return (
    <main>
      <h1>Plant Store</h1>
      <p>
        The API takes new plants at <code>POST /plants</code> with a bearer token; see the README for how to get one.
      </p>
    </main>
  );
}
