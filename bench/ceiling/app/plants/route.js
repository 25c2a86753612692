// The framework's ceiling: Next.js route handlers that do nothing but answer
// a constant. The app's POST /plants and GET /plants?limit=20 are measured
// against them.
const PLANT = '{"id":1,"name":"Fern"}';

// A page of 20 plants, the size GET /plants?limit=20 answers in the bench.
const PAGE = JSON.stringify(Array.from({ length: 20 }, (_, index) => ({ id: index + 1, name: `Bench fern ${index + 1}`, tag: "bench" })));

export async function POST() {
  return new Response(PLANT, { headers: { "content-type": "application/json" } });
}

export async function GET() {
  return new Response(PAGE, { headers: { "content-type": "application/json" } });
}
