import { describe, expect, it } from "vitest";
import { restoreRoundedIntegers, roundedIntegers } from "@/lib/json/rounded-integers";

const INT64 = '{"type":"integer","format":"int64","minimum":-9223372036854775808,"maximum":9223372036854775807}';

describe("roundedIntegers", () => {
  it("knows each integer whose double prints as another number by how it prints", () => {
    expect(Object.fromEntries(roundedIntegers(INT64))).toEqual({
      "-9223372036854776000": "-9223372036854775808",
      "9223372036854776000": "9223372036854775807",
    });
    expect(String(9223372036854775807)).toBe("9223372036854776000");
    // A double holds -2^63 exactly, and still prints it short.
    expect(BigInt(-9223372036854775808)).toBe(-(2n ** 63n));
    expect(String(-9223372036854775808)).toBe("-9223372036854776000");
  });

  it("leaves out what prints as itself, written however, and what is inside strings", () => {
    const json = '{"a":9007199254740992,"b":1e3,"c":2.5,"d":-0,"e":"9007199254740993","f":["x\\"9007199254740995"],"g":1e400,"h":1e21}';
    expect(roundedIntegers(json).size).toBe(0);
  });

  it("takes integers written with a fraction or an exponent by their value", () => {
    expect(Object.fromEntries(roundedIntegers('{"a":9007199254740993.0,"b":90071992547409930e-1}'))).toEqual({ "9007199254740992": "9007199254740993" });
  });

  it("leaves out two integers that print alike: neither can be told from the other", () => {
    const rounded = roundedIntegers('{"a":9223372036854775807,"b":9223372036854775808,"c":9007199254740993}');
    expect(Object.fromEntries(rounded)).toEqual({ "9007199254740992": "9007199254740993" });
  });
});

describe("restoreRoundedIntegers", () => {
  const rounded = roundedIntegers(INT64);

  it("writes a constraint's bounds exactly", () => {
    expect(restoreRoundedIntegers("[-9223372036854776000, 9223372036854776000]", rounded)).toBe("[-9223372036854775808, 9223372036854775807]");
    expect(restoreRoundedIntegers("≥ -9223372036854776000", rounded)).toBe("≥ -9223372036854775808");
  });

  it("writes a JSON example's numbers exactly, and leaves its strings as they are", () => {
    const example = '{\n  "id": -9223372036854776000,\n  "name": "9223372036854776000",\n  "tag": "x"\n}';
    expect(restoreRoundedIntegers(example, rounded)).toBe('{\n  "id": -9223372036854775808,\n  "name": "9223372036854776000",\n  "tag": "x"\n}');
  });

  it("leaves other numbers, and digits inside words, alone; applied twice it changes nothing more", () => {
    const text = "[0, 100] v19223372036854776000 9223372036854776000.5 9223372036854776000";
    const once = restoreRoundedIntegers(text, rounded);
    expect(once).toBe("[0, 100] v19223372036854776000 9223372036854776000.5 9223372036854775807");
    expect(restoreRoundedIntegers(once, rounded)).toBe(once);
  });
});
