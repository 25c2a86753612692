import { expect, it } from "vitest";
import { takeStreamPlace } from "@/lib/live/stream-limits";

it("holds a caller's and an address's open streams under their limits, and gives a place back once", () => {
  const limits = { perCaller: 2, perAddress: 3 };
  const places = [takeStreamPlace("token:a", "10.0.0.1", limits), takeStreamPlace("token:a", "10.0.0.1", limits)];
  expect(() => takeStreamPlace("token:a", "10.0.0.2", limits)).toThrow("this token or staff member already holds 2 open event streams, the most allowed; close one first");
  places.push(takeStreamPlace("token:b", "10.0.0.1", limits));
  expect(() => takeStreamPlace("token:c", "10.0.0.1", limits)).toThrow("this client address already holds 3 open event streams, the most allowed; close one first");
  places[0]!();
  places[0]!();
  // One place back, not two.
  takeStreamPlace("token:c", "10.0.0.1", limits);
  expect(() => takeStreamPlace("token:d", "10.0.0.1", limits)).toThrow(/client address/);
});
