import { describe, expect, it } from "vitest";
import { ACTIVITY_CSV_HEADER, activityCsvFileName, activityCsvRecords } from "@/lib/activity/activity-csv";
import { ACTION_FAMILIES } from "@/lib/activity/activity-search";
import { actionWords, changesWords, familyWords, whoOf, whoWords } from "@/lib/activity/activity-words";
import { ACTIVITY_ACTIONS } from "@/lib/activity/record";
import type { ActivityEntry } from "@/lib/activity/history";

// A record in words and in CSV (issue 22): the same words on the page, in the
// CSV and at the CLI, and CSV cells a spreadsheet never runs as formulas.

const PEOPLE = new Map([["user-ana", { name: "=Ana", email: "ana@plants.example" }]]);

function entry(overrides: Partial<ActivityEntry>): ActivityEntry {
  return {
    id: 812n,
    occurredAt: new Date("2026-11-23T14:05:00.250Z"),
    action: "plant.updated",
    actor: { kind: "person", userId: "user-ana", tokenId: null, name: "Ana Lopez" },
    origin: { clientAddress: null, userAgent: null, requestId: null },
    subjectKind: "plant",
    subjectId: "-5",
    changes: {},
    ...overrides,
  };
}

describe("activity in words", () => {
  it("has words for every kind of change and every family", () => {
    expect(ACTIVITY_ACTIONS.filter((action) => actionWords(action) === action)).toEqual([]);
    expect(ACTION_FAMILIES.map(familyWords)).toEqual([
      "any change to plants",
      "any change to API tokens",
      "any change to webhook endpoints",
      "any change to accounts",
      "any change to passwords",
      "any change to sign-ins",
    ]);
  });

  it("names who made a change: a person, a token and its person, the app, the CLI and its OS user", () => {
    const who = (actor: ActivityEntry["actor"]) => whoWords(whoOf(entry({ actor }), PEOPLE));
    expect(who({ kind: "person", userId: "user-ana", tokenId: null, name: "Ana Lopez" })).toBe("Ana Lopez");
    expect(who({ kind: "token", userId: "user-ana", tokenId: "t1", name: "till sync" })).toBe("API token “till sync” of =Ana");
    expect(who({ kind: "token", userId: null, tokenId: "t1", name: "ci" })).toBe("API token “ci” (made with the CLI)");
    expect(who({ kind: "app", userId: null, tokenId: null, name: "" })).toBe("the app");
    expect(who({ kind: "cli", userId: null, tokenId: null, name: "ops" })).toBe("the CLI (ops)");
    expect(who({ kind: "cli", userId: null, tokenId: null, name: "" })).toBe("the CLI");
  });

  it("says what changed: old and new, a new subject's fields, a deleted one as it was, exact ids", () => {
    expect(changesWords({ before: { name: "Fern", tag: "x" }, after: { name: "Boston fern", tag: null } })).toBe("name: Fern → Boston fern; tag: x → none");
    expect(changesWords({ after: { id: 9007199254740993n, name: "Fern" } })).toBe("id: 9007199254740993; name: Fern");
    expect(changesWords({ before: { id: 9007199254740993n, name: "Fern" } })).toBe("was id: 9007199254740993; name: Fern");
    expect(changesWords({ after: { id: 7n, name: "Fern" }, restoredFrom: 812n })).toBe("id: 7; name: Fern (restored from record 812)");
    expect(changesWords({ after: { events: ["plant.created", "plant.deleted"], enabled: false } })).toBe("events: plant.created, plant.deleted; enabled: false");
    expect(changesWords({})).toBe("");
  });
});

describe("activityCsvRecords", () => {
  it("writes a record's facts and words, ids exact, a negative plant id as a number", () => {
    expect(ACTIVITY_CSV_HEADER).toBe(
      "id,at,action,what,who,by_kind,by_user_id,by_token_id,client_address,user_agent,request_id,subject_kind,subject_id,subject,changes,before,after,restored_from\r\n",
    );
    const csv = activityCsvRecords(
      [entry({ action: "plant.deleted", changes: { before: { id: -5n, name: "Fern, \"the\" best", tag: "x" } }, origin: { clientAddress: "203.0.113.7", userAgent: "Firefox", requestId: "r-1" } })],
      PEOPLE,
    );
    expect(csv).toBe(
      '812,2026-11-23T14:05:00.250Z,plant.deleted,deleted a plant,Ana Lopez,person,user-ana,,203.0.113.7,Firefox,r-1,plant,-5,plant -5,' +
        '"was id: -5; name: Fern, ""the"" best; tag: x","{""id"":-5,""name"":""Fern, \\""the\\"" best"",""tag"":""x""}",,\r\n',
    );
  });

  it("never starts a text cell with a formula: a name, a label, a User-Agent or a subject's id starting with = + - @ is written after an apostrophe", () => {
    const csv = activityCsvRecords(
      [
        entry({
          actor: { kind: "token", userId: "user-ana", tokenId: "@t", name: "+label" },
          origin: { clientAddress: null, userAgent: "=cmd|' /C calc'!A0", requestId: null },
          subjectKind: "account",
          subjectId: "-user",
          action: "account.changed",
          changes: { after: { name: "=2+3" } },
        }),
      ],
      PEOPLE,
    );
    const cells = csv.trimEnd().split(",");
    expect(cells.filter((cell) => /^"?[=+\-@]/.test(cell))).toEqual([]);
    expect(csv).toContain(",'@t,");
    expect(csv).toContain(",'=cmd|' /C calc'!A0,");
    expect(csv).toContain(",'-user,");
  });

  it("names a download for what it holds and the day", () => {
    expect(activityCsvFileName({}, new Date("2026-11-23T10:00:00Z"))).toBe("activity-2026-11-23.csv");
    expect(activityCsvFileName({ plant: -9223372036854775808n }, new Date("2026-11-23T10:00:00Z"))).toBe("activity-plant--9223372036854775808-2026-11-23.csv");
  });
});
