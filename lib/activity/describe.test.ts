import { describe, expect, it } from "vitest";
import { ACTION_FAMILIES } from "@/lib/activity/activity-search";
import { actorText, changesText, describeAction, describeEntry, describeFamily, describeSubject, listChanges, nameActor, UNKNOWN_ACCOUNT } from "@/lib/activity/describe";
import type { ActivityEntry } from "@/lib/activity/history";
import { ACTIVITY_ACTIONS } from "@/lib/activity/record";

// The activity record in words, as the plant page and the Activity page show it.

type Actor = ActivityEntry["actor"];
const person: Actor = { kind: "person", userId: "user-ana", tokenId: null, name: "Ana Lopez" };
const token: Actor = { kind: "token", userId: "user-ana", tokenId: "token-till", name: "till sync" };
const OWNERS = new Map([["user-ana", "Ana López-Ruiz"]]);

describe("naming who made a change", () => {
  it("names a person as they were named then, and a token by its label and the person it belongs to now", () => {
    expect(nameActor(person, OWNERS)).toEqual({ lead: "", person: { userId: "user-ana", name: "Ana Lopez" } });
    const named = nameActor(token, OWNERS);
    expect(named).toEqual({ lead: "API token “till sync” of ", person: { userId: "user-ana", name: "Ana López-Ruiz" } });
    expect(actorText(named)).toBe("API token “till sync” of Ana López-Ruiz");
  });

  it("names a token without an owner (made at the CLI) by its label alone, and one whose owner is not found as such", () => {
    expect(nameActor({ ...token, userId: null }, OWNERS)).toEqual({ lead: "API token “till sync”", person: null });
    expect(nameActor({ ...token, userId: "user-gone" }, OWNERS).person).toEqual({ userId: "user-gone", name: UNKNOWN_ACCOUNT });
  });

  it("names the app, and the CLI with its operator's OS user when known", () => {
    expect(actorText(nameActor({ kind: "app", userId: null, tokenId: null, name: "" }, OWNERS))).toBe("the app");
    expect(actorText(nameActor({ kind: "cli", userId: null, tokenId: null, name: "alice" }, OWNERS))).toBe("the CLI (OS user alice)");
    expect(actorText(nameActor({ kind: "cli", userId: null, tokenId: null, name: "" }, OWNERS))).toBe("the CLI");
  });
});

describe("what was done", () => {
  it("says a plant was created, changed, deleted or restored, and has words for every action", () => {
    expect(["plant.created", "plant.updated", "plant.deleted", "plant.restored"].map((action) => describeAction(action as ActivityEntry["action"]))).toEqual([
      "created",
      "changed",
      "deleted",
      "restored",
    ]);
    for (const action of ACTIVITY_ACTIONS) expect(describeAction(action), action).toMatch(/^[a-z]/);
  });
});

describe("listing a change's fields", () => {
  const plant = (changes: ActivityEntry["changes"]) => listChanges({ subjectKind: "plant", changes });

  it("lists only the fields a change changed, old → new, a removed tag as none", () => {
    expect(plant({ before: { tag: "aroid", name: "Monstera" }, after: { tag: null, name: "Monstera deliciosa" } })).toEqual([
      { field: "name", label: "Name", before: { text: "Monstera", none: false }, after: { text: "Monstera deliciosa", none: false } },
      { field: "tag", label: "Tag", before: { text: "aroid", none: false }, after: { text: "no tag", none: true } },
    ]);
    expect(plant({ before: { tag: null }, after: { tag: "fern" } })).toEqual([
      { field: "tag", label: "Tag", before: { text: "no tag", none: true }, after: { text: "fern", none: false } },
    ]);
  });

  it("lists a created or deleted plant whole, its id exact above 2^53 and a missing tag as no tag", () => {
    expect(plant({ after: { id: 9007199254740993n, name: "Monstera" } })).toEqual([
      { field: "id", label: "Id", after: { text: "9007199254740993", none: false } },
      { field: "name", label: "Name", after: { text: "Monstera", none: false } },
      { field: "tag", label: "Tag", after: { text: "no tag", none: true } },
    ]);
    expect(plant({ before: { id: 5n, name: "Fern", tag: "shade" } }).map(({ field, before }) => [field, before?.text])).toEqual([
      ["id", "5"],
      ["name", "Fern"],
      ["tag", "shade"],
    ]);
  });

  it("labels and shows other subjects' fields in words", () => {
    const changes = listChanges({ subjectKind: "webhook", changes: { before: { events: ["plant.created"], enabled: true, sessionsValidFrom: null, retries: { at: 9007199254740993n } }, after: { events: [], enabled: false, sessionsValidFrom: "", retries: 3 } } });
    expect(changes.map(({ label, before, after }) => [label, before?.text, after?.text])).toEqual([
      ["Events", "plant.created", "none"],
      ["Enabled", "yes", "no"],
      ["Sessions valid from", "none", "empty"],
      ["Retries", '{"at":9007199254740993}', "3"],
    ]);
    expect(listChanges({ subjectKind: "account", changes: {} })).toEqual([]);
  });
});

describe("a record in words", () => {
  it("says when, who, what was done and the fields, keeping the record's id exact", () => {
    const at = new Date("2026-11-26T10:00:00.000Z");
    const entry: ActivityEntry = {
      id: 9007199254740993n,
      occurredAt: at,
      action: "plant.updated",
      actor: token,
      origin: { clientAddress: null, userAgent: null, requestId: null },
      subjectKind: "plant",
      subjectId: "7",
      changes: { before: { name: "Fern" }, after: { name: "Boston fern" } },
    };
    expect(describeEntry(entry, OWNERS)).toEqual({
      id: 9007199254740993n,
      at,
      who: { lead: "API token “till sync” of ", person: { userId: "user-ana", name: "Ana López-Ruiz" } },
      what: "changed",
      changes: [{ field: "name", label: "Name", before: { text: "Fern", none: false }, after: { text: "Boston fern", none: false } }],
    });
  });
});

describe("a record in one line, its subject and its kind", () => {
  const ACCOUNTS = new Map([["user-ana", "Ana Lopez"]]);

  it("puts a change's fields in one line: old → new, a deleted plant as it was, a restored one with the record it came from", () => {
    expect(changesText({ subjectKind: "plant", changes: { before: { name: "Fern", tag: "x" }, after: { name: "Boston fern", tag: null } } })).toBe(
      "Name: Fern → Boston fern; Tag: x → no tag",
    );
    expect(changesText({ subjectKind: "plant", changes: { before: { id: 9007199254740993n, name: "Fern" } } })).toBe("as it was: Id: 9007199254740993; Name: Fern; Tag: no tag");
    expect(changesText({ subjectKind: "plant", changes: { after: { id: 7n, name: "Fern", tag: "shade" }, restoredFrom: 812n } })).toBe(
      "Id: 7; Name: Fern; Tag: shade (restored from record 812)",
    );
    expect(changesText({ subjectKind: "webhook", changes: { after: { events: ["plant.created", "plant.deleted"], enabled: false } } })).toBe(
      "Events: plant.created, plant.deleted; Enabled: no",
    );
    expect(changesText({ subjectKind: "account", changes: {} })).toBe("");
  });

  it("names a record's subject, an account by its name now", () => {
    expect(describeSubject({ subjectKind: "plant", subjectId: "-9223372036854775808" }, ACCOUNTS)).toBe("plant -9223372036854775808");
    expect(describeSubject({ subjectKind: "account", subjectId: "user-ana" }, ACCOUNTS)).toBe("account Ana Lopez");
    expect(describeSubject({ subjectKind: "account", subjectId: "" }, ACCOUNTS)).toBe("no account");
    expect(describeSubject({ subjectKind: "webhook", subjectId: "wh-1" }, ACCOUNTS)).toBe("webhook endpoint wh-1");
    expect(describeSubject({ subjectKind: "token", subjectId: "t-1" }, ACCOUNTS)).toBe("API token t-1");
  });

  it("has words for every family of actions", () => {
    expect(ACTION_FAMILIES.map(describeFamily)).toEqual(["plants", "API tokens", "webhook endpoints", "accounts", "passwords", "sign-ins", "settings"]);
  });
});
