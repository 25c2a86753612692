import { describe, expect, it } from "vitest";
import { newApiTokenSchema } from "@/lib/validations/api-token";
import { sentence } from "@/lib/validations/sentence";
import { signInSchema } from "@/lib/validations/user";
import { newWebhookEndpointSchema } from "@/lib/validations/webhook";

describe("sentence", () => {
  it.each([
    ["label is required", "Label", "Label is required."],
    ["label must be at most 100 characters", "Label", "Label must be at most 100 characters."],
    ["url must be an https:// URL", "URL", "URL must be an https:// URL."],
    ["url's host shop.invalid does not resolve to an address", "URL", "URL's host shop.invalid does not resolve to an address."],
    ["choose at least one scope", "Scopes", "Choose at least one scope."],
    ["name must be at most 200 characters (got 205)", "Name", "Name must be at most 200 characters (got 205)."],
    ["email is required", undefined, "Email is required."],
    // Only a whole word is the field's name.
    ["urls are listed below", "URL", "Urls are listed below."],
    ["  tag must not be only whitespace ", "Tag", "Tag must not be only whitespace."],
    ["Already a sentence.", "Label", "Already a sentence."],
    ["is this a question?", undefined, "Is this a question?"],
    ["", "Label", ""],
  ])("%j (%s) reads %j", (message, label, expected) => {
    expect(sentence(message, label)).toBe(expected);
  });

  it("changes nothing more when applied twice", () => {
    const once = sentence("url must be an https:// URL", "URL");
    expect(sentence(once, "URL")).toBe(once);
  });

  it("takes a label with characters special in a regular expression literally", () => {
    expect(sentence("id (text) must be a whole number", "ID (text)")).toBe("ID (text) must be a whole number.");
    expect(sentence("idxtext) must be a whole number", "ID (text)")).toBe("Idxtext) must be a whole number.");
  });
});

// The forms' sentences come from the very messages the API and the CLI give.
describe("the forms' messages, from the shared schemas", () => {
  const first = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message ?? "";

  it.each([
    [first(newApiTokenSchema.safeParse({ label: " ", scopes: ["plants:read"], expires: "30d" })), "Label", "Label is required."],
    [first(newApiTokenSchema.safeParse({ label: "x".repeat(101), scopes: ["plants:read"], expires: "30d" })), "Label", "Label must be at most 100 characters."],
    [first(newApiTokenSchema.safeParse({ label: "till", scopes: [], expires: "30d" })), "Scopes", "Choose at least one scope."],
    [first(newWebhookEndpointSchema.safeParse({ url: "ftp://shop.example/", events: ["plant.created"] })), "URL", "URL must be an https:// URL."],
    [first(signInSchema.safeParse({ email: "", password: "x" })), "Email", "Email is required."],
  ])("%j as %s: %j", (message, label, expected) => {
    expect(sentence(message, label)).toBe(expected);
  });
});
