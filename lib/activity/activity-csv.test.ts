import { describe, expect, it } from "vitest";
import { ACTIVITY_CSV_HEADER, activityCsvFileName, activityCsvRecords } from "@/lib/activity/activity-csv";
import type { ActivityEntry } from "@/lib/activity/history";

// The Activity page's records in CSV (issue 22): the facts for a program, the
// page's words for a person, and cells a spreadsheet never runs as formulas.

const NAMES = new Map([["user-ana", "=Ana"]]);

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

describe("activityCsvRecords", () => {
  it("writes a record's facts and words, ids exact, a negative plant id as a number", () => {
    expect(ACTIVITY_CSV_HEADER).toBe(
      "id,at,action,what,who,by_kind,by_user_id,by_token_id,client_address,user_agent,request_id,subject_kind,subject_id,subject,changes,before,after,restored_from\r\n",
    );
    const csv = activityCsvRecords(
      [entry({ action: "plant.deleted", changes: { before: { id: -5n, name: 'Fern, "the" best', tag: "x" } }, origin: { clientAddress: "203.0.113.7", userAgent: "Firefox", requestId: "r-1" } })],
      NAMES,
    );
    expect(csv).toBe(
      "812,2026-11-23T14:05:00.250Z,plant.deleted,deleted,Ana Lopez,person,user-ana,,203.0.113.7,Firefox,r-1,plant,-5,plant -5," +
        '"as it was: Id: -5; Name: Fern, ""the"" best; Tag: x","{""id"":-5,""name"":""Fern, \\""the\\"" best"",""tag"":""x""}",,\r\n',
    );
    const restored = activityCsvRecords([entry({ id: 9223372036854775807n, action: "plant.restored", changes: { after: { id: 9007199254740993n, name: "Fern" }, restoredFrom: 9007199254740995n } })], NAMES);
    expect(restored).toMatch(/^9223372036854775807,.*,"{""id"":9007199254740993,""name"":""Fern""}",9007199254740995\r\n$/);
  });

  it("never starts a text cell with a formula: a name, a label, a User-Agent or a subject's id starting with = + - @ is written after an apostrophe", () => {
    const csv = activityCsvRecords(
      [
        entry({
          actor: { kind: "token", userId: null, tokenId: "@t", name: "+label" },
          origin: { clientAddress: null, userAgent: "=cmd|' /C calc'!A0", requestId: null },
          subjectKind: "account",
          subjectId: "-user",
          action: "account.changed",
          changes: { after: { name: "=2+3" } },
        }),
        entry({ actor: { kind: "person", userId: "user-ana", tokenId: null, name: "=Ana" } }),
      ],
      NAMES,
    );
    const cells = csv.split(/[,\r\n]+/);
    // Only a plant's id, a number, starts with a minus.
    expect(cells.filter((cell) => /^"?[=+\-@]/.test(cell))).toEqual(["-5"]);
    expect(csv).toContain(",'@t,");
    expect(csv).toContain(",'=cmd|' /C calc'!A0,");
    expect(csv).toContain(",'-user,");
    expect(csv).toContain(",'=Ana,person,");
  });

  it("names a download for what it holds and the day", () => {
    expect(activityCsvFileName({}, new Date("2026-11-23T10:00:00Z"))).toBe("activity-2026-11-23.csv");
    expect(activityCsvFileName({ plant: -9223372036854775808n }, new Date("2026-11-23T10:00:00Z"))).toBe("activity-plant--9223372036854775808-2026-11-23.csv");
  });
});
