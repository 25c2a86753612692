import { describe, expect, it } from "vitest";
import { negotiateMediaType } from "@/lib/http/content-negotiation";

// The list's offers, in the server's order of preference.
const OFFERS = ["application/json", "text/csv; charset=utf-8; header=present"] as const;
const JSON_TYPE = OFFERS[0];
const CSV = OFFERS[1];

describe("negotiateMediaType (RFC 9110 Accept)", () => {
  it.each([
    [null, JSON_TYPE],
    ["", JSON_TYPE],
    ["  ", JSON_TYPE],
    ["*/*", JSON_TYPE],
    ["application/json", JSON_TYPE],
    ["APPLICATION/JSON", JSON_TYPE],
    ["application/*", JSON_TYPE],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", JSON_TYPE],
    ["text/csv", CSV],
    ["Text/CSV", CSV],
    ["text/*", CSV],
    ["text/csv; charset=utf-8", CSV],
    ['text/csv; charset="UTF-8"; header=present', CSV],
    ["application/json;q=0.5, text/csv;q=0.9", CSV],
    ["application/json;q=0.9, text/csv;q=0.9", JSON_TYPE],
    ["*/*;q=0.1, text/csv", CSV],
    ["text/csv;q=0, */*", JSON_TYPE],
    // The most specific range decides: text/csv is refused though text/* is welcome.
    ["text/*, text/csv;q=0", undefined],
    ["text/*;q=0.2, application/json;q=0.1", CSV],
    ["application/json;q=0.001, text/csv;q=0.000", JSON_TYPE],
    // A quoted comma is no list separator.
    ['text/csv;foo="a,b";q=0.5, application/json;q=0.4', JSON_TYPE],
    ['text/csv;charset="utf-8";q=0.5, application/json;q=0.4', CSV],
    // accept-ext after the weight is no media type parameter.
    ["text/csv;q=0.5;level=1, application/json;q=0.4", CSV],
  ])("Accept %j answers %s", (accept, chosen) => {
    expect(negotiateMediaType(accept, OFFERS)).toBe(chosen);
  });

  it.each([
    "text/html",
    "application/xml, text/plain;q=0.5",
    "text/csv;header=absent",
    "text/csv;charset=latin1",
    "application/json;q=0",
    "*/*;q=0",
    "application/problem+json",
  ])("finds nothing acceptable in %j", (accept) => {
    expect(negotiateMediaType(accept, OFFERS)).toBeUndefined();
  });

  it.each(["json", "text/", "/csv", "*/csv", "text/csv;q=2", "text/csv;q=0.5555", "text/csv;q=abc", "text/csv;=x", "text/csv/x"])(
    "ignores the malformed member %j",
    (member) => {
      expect(negotiateMediaType(member, OFFERS)).toBeUndefined();
      expect(negotiateMediaType(`${member}, application/json;q=0.1`, OFFERS)).toBe(JSON_TYPE);
    },
  );
});
