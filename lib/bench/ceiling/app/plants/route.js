// The framework's ceiling: a Next.js route handler that does nothing but
// answer a constant. The app's POST /plants is measured against it.
const PLANT = '{"id":1,"name":"Fern"}';

export async function POST() {
  return new Response(PLANT, { headers: { "content-type": "application/json" } });
}
