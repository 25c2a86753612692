// The ceiling for PATCH /plants/{id}: a route handler that answers a constant.
const PLANT = '{"id":1,"name":"Fern"}';

export async function PATCH() {
  return new Response(PLANT, { headers: { "content-type": "application/json" } });
}
