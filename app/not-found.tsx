import Link from "next/link";

export default function NotFound() {
  return (
    <main id="main" className="narrow">
      <h1>Page not found</h1>
      <p>
        There is nothing here. <Link href="/">Go to the plants</Link>.
      </p>
    </main>
  );
}
