import fc from "fast-check";
import type { JsonSchema, Operation } from "./openapi";

/** Strings that have broken parsers somewhere: numbers out of range, impossible dates, encodings, injections. */
const NASTY = [
  "",
  " ",
  "0",
  "-1",
  "-0",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "99999999999999999999999999",
  "0x10",
  "1_000",
  "2025-02-30",
  "2025-02-29",
  "2024-02-30",
  "2025-13-01",
  "2025-00-10",
  "0000-00-00",
  "1899-12-31",
  "9999-12-31",
  "275760-09-13",
  "2025-1-1",
  "2025-01-01T25:00:00Z",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  "../../etc/passwd",
  "..",
  ".",
  "%",
  "%ZZ",
  "%00",
  "%2e%2e%2f",
  "\u0000",
  "\u0007",
  "\r\n",
  "\t",
  "\\",
  "\u202eLSI",
  "\ufeffAAPL",
  "ＡＡＰＬ",
  "aapl",
  " AAPL",
  "AAPL ",
  "A,A,A",
  ",,,",
  "'; DROP TABLE assets;--",
  "' OR '1'='1",
  "<script>alert(1)</script>",
  "$(whoami)",
  "{{7*7}}",
  "😀",
  "𝕏𝕐",
  "a".repeat(10_000),
  "9".repeat(400),
];

/** A text value from the adversarial space: the list above, any code points (controls, surrogates), or long noise. */
export const adversarialText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
);

/** A JSON value of any type, for a field that expects another. */
export const wrongTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, "", [], {}),
  adversarialText,
  fc.double({ noNaN: true }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

/** A value the schema accepts (as near as a generator can tell), drawn from its enum, example, pattern or range. */
export function valid(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map(valid));
  const examples = [schema.example, schema.default].filter((v) => v !== undefined);
  const fromExample = examples.length ? [fc.constantFrom(...examples)] : [];
  switch (typeOf(schema)) {
    case "integer":
      return fc.oneof(...fromExample, fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 }));
    case "number":
      return fc.oneof(
        ...fromExample,
        fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true }),
      );
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(schema.items ? valid(schema.items) : fc.string(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case "object": {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valid(v)])), {
        requiredKeys: [...required].filter((k) => k in props),
      });
    }
    default: {
      const maxLength = schema.maxLength ?? 40;
      const generated = schema.pattern
        ? fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= maxLength)
        : fc.string({ maxLength: Math.min(maxLength, 40) });
      // Examples weigh most: they name things the service knows (a catalogue ticker, a real ISIN), so
      // the request gets past the lookups into the code behind them.
      return fromExample.length
        ? fc.oneof(
            { weight: 3, arbitrary: fromExample[0] as fc.Arbitrary<unknown> },
            { weight: 1, arbitrary: generated },
          )
        : generated;
    }
  }
}

/** Valid, adversarial or wrongly typed: what a client (or an attacker) might send for this schema. */
export function anyFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: valid(schema) },
    { weight: 2, arbitrary: adversarialText },
    { weight: 1, arbitrary: wrongTyped },
  );
}

/** A body built from the schema, then bent: one field wrong, one unknown field, one required field gone. */
function mutatedBody(schema: JsonSchema): fc.Arbitrary<string> {
  const props = Object.keys(schema.properties ?? {});
  const base = valid(schema) as fc.Arbitrary<Record<string, unknown>>;
  return fc
    .tuple(base, fc.constantFrom(...(props.length ? props : ["x"])), anyFor(schema.properties?.[props[0] ?? ""] ?? {}))
    .chain(([body, field]) =>
      fc.oneof(
        fc.constant(body).map((b) => JSON.stringify(b)),
        anyFor(schema.properties?.[field] ?? {}).map((v) => JSON.stringify({ ...body, [field]: v })),
        fc.constant(JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => k !== field)))),
        fc.tuple(fc.string({ maxLength: 12 }), wrongTyped).map(([k, v]) => JSON.stringify({ ...body, [k]: v })),
        fc.integer({ min: 1, max: 20_000 }).map((n) => withNested(body, field, n)),
      ),
    );
}

/**
 * The body with `field` an array nested `depth` deep, written as text: JSON.stringify itself
 * recurses and overflows the stack long before 20,000 levels, so the nesting is spelled out.
 */
function withNested(body: Record<string, unknown>, field: string, depth: number): string {
  const marker = "\u0000nested\u0000";
  return JSON.stringify({ ...body, [field]: marker }).replace(
    JSON.stringify(marker),
    `${"[".repeat(depth)}${"]".repeat(depth)}`,
  );
}

const MEGABYTE = 1024 * 1024;

/** Bodies that are not what any route reads: not JSON, empty, one megabyte, nested ten thousand deep. */
export const hostileBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", " ", "{", "}", "[", "null", "true", "0", '"text"', "[]", "{}", '{"a":1,}', "{'a':1}", "\u0000"),
  fc.constant(`{"x":"${"a".repeat(MEGABYTE)}"}`),
  fc.constant(`[${"1,".repeat(MEGABYTE / 4)}1]`),
  fc.integer({ min: 100, max: 100_000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
  fc.integer({ min: 100, max: 50_000 }).map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`),
  fc.string({ unit: "binary", maxLength: 200 }),
  wrongTyped.map((v) => JSON.stringify(v) ?? "null"),
);

export interface FuzzRequest {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

/** A path segment as a client would put it on the wire; a lone surrogate (not encodable) goes as bad UTF-8. */
function segment(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
}

/** How a request is shown in a failure report: a megabyte body would bury the rest. */
export function describeRequest(r: FuzzRequest): string {
  const body = r.body === undefined ? "" : ` body(${r.body.length} chars)=${JSON.stringify(r.body.slice(0, 300))}`;
  return `${r.method} ${r.path.slice(0, 500)}${r.contentType ? ` [${r.contentType}]` : ""}${body}`;
}

function withShortName(r: FuzzRequest): FuzzRequest {
  return Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) });
}

/** A raw segment, not encoded by us: what a hand-written URL may carry. */
const rawSegment = fc.constantFrom("%", "%ZZ", "%00", "..", ".", "%2F", "a%2Fb", "%E2%82", "~", "%25");

/** One request to `op`, as a client (or an attacker) might write it. */
export function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const path = fc
    .tuple(
      ...pathParams.map((p) =>
        fc.oneof({ weight: 6, arbitrary: anyFor(p.schema).map(segment) }, { weight: 1, arbitrary: rawSegment }),
      ),
    )
    .map((values) => {
      let i = 0;
      return op.template.replace(/\{\w+\}/g, () => values[i++] ?? "");
    });
  const pair = fc.oneof(
    ...(queryParams.length
      ? [
          {
            weight: 4,
            arbitrary: fc
              .constantFrom(...queryParams)
              .chain((p) =>
                anyFor(p.schema).map((v) => [p.name, typeof v === "string" ? v : (JSON.stringify(v) ?? "")] as const),
              ),
          },
        ]
      : []),
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), adversarialText) },
  );
  const query = fc.array(pair, { maxLength: 6 }).map((pairs) => {
    const q = new URLSearchParams();
    for (const [k, v] of pairs) {
      try {
        q.append(k, v);
      } catch {
        // a lone surrogate: URLSearchParams replaces it, nothing to skip
      }
    }
    const text = q.toString();
    return text ? `?${text}` : "";
  });
  const body: fc.Arbitrary<string | undefined> =
    op.method === "GET"
      ? fc.constant(undefined)
      : op.body
        ? fc.oneof(
            { weight: 3, arbitrary: mutatedBody(op.body) },
            { weight: 1, arbitrary: hostileBody },
            { weight: 1, arbitrary: fc.constant(undefined) },
          )
        : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileBody });
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constant("application/json") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json; charset=latin1",
        "multipart/form-data; boundary=x",
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.record({ path, query, body, contentType }).map(({ path, query, body, contentType }) =>
    withShortName({
      method: op.method,
      path: path + query,
      body,
      contentType: body === undefined ? undefined : contentType,
    }),
  );
}
