import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { apiKeys, usageLogs } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import type { CreatedKeySchema, KeyListSchema, KeySchema } from "../../src/routes/keys/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

type Created = import("zod").infer<typeof CreatedKeySchema>;
type Key = import("zod").infer<typeof KeySchema>;
type KeyList = import("zod").infer<typeof KeyListSchema>;

const deps = buildDeps(env);
afterAll(() => deps.close());

/** An instant `days` from now, as the API takes it (relative, so the test holds on any day). */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** This run's own suffix: a key's name is taken while it is in force, and a rerun may share the database. */
const RUN = crypto.randomUUID().slice(0, 8);

async function create(body: Record<string, unknown>): Promise<Created> {
  const res = await call<Created>("/keys", { method: "POST", body: { ...body, name: `${body.name} ${RUN}` } });
  expect(res.status).toBe(200);
  return res.body;
}

describe("managed keys", () => {
  it("are created by an admin key, shown once, stored by their hash only, and work at once for their kind", async () => {
    const made = await create({ name: "sheets", kind: "read_only" });
    expect(made).toMatchObject({
      name: `sheets ${RUN}`,
      kind: "read_only",
      state: "active",
      expires_at: null,
      revoked_at: null,
    });
    expect(made.key).toMatch(/^mds_[0-9a-f]{40}$/);
    expect(made.id).toMatch(/^key_[0-9a-f]{16}$/);
    expect(made.prefix).toBe(made.key.slice(0, 8));
    const [stored] = await deps.db.select().from(apiKeys).where(eq(apiKeys.id, made.id));
    const hash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(made.key))))
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    expect(stored?.hash).toBe(hash);
    expect(JSON.stringify(stored)).not.toContain(made.key);

    // A read-only key: reads, no writes, no key management.
    expect((await call("/listings?ticker=MC.PA", { key: made.key })).status).toBe(200);
    expect((await call("/cache/clear", { method: "POST", key: made.key })).status).toBe(403);
    // The listing never shows a key or a hash; it shows when the key was used.
    const list = await call<KeyList>("/keys");
    const listed = list.body.keys.find((k) => k.id === made.id);
    expect(listed).toMatchObject({ name: `sheets ${RUN}`, kind: "read_only", prefix: made.prefix, state: "active" });
    expect(listed?.last_used_at).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(made.key);
    expect(JSON.stringify(list.body)).not.toContain(hash);
  });

  it("may be managed only by a full-access key of the settings, never by a managed or read-only one", async () => {
    const managedFull = await create({ name: "ops robot", kind: "full" });
    // A managed full-access key writes like any full-access key, but cannot mint or revoke keys.
    expect((await call("/cache/clear/MC.PA", { method: "POST", key: managedFull.key })).status).toBe(200);
    for (const key of [managedFull.key, READ_ONLY_KEY]) {
      const refused = await call<ErrorBody>("/keys", { method: "POST", key, body: { name: "x", kind: "full" } });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain("Managing keys needs a full-access key of the service's settings");
      expect((await call("/keys", { key })).status).toBe(403);
    }
  });

  it("expire when their expiry passes, and take a new name or expiry; a past expiry is a 400", async () => {
    const made = await create({ name: "trial", kind: "read_only", expires_at: inDays(1) });
    expect((await call("/listings?ticker=MC.PA", { key: made.key })).status).toBe(200);
    // Two days on (the service's clock pinned there), the key has expired.
    const later = await call<ErrorBody>("/listings?ticker=MC.PA", { key: made.key, at: inDays(2) });
    expect(later.status).toBe(401);
    expect(later.body.message).toBe("This API key was expired");
    expect(
      (await call<ErrorBody>(`/keys/${made.id}`, { method: "PATCH", body: { expires_at: inDays(-1) } })).status,
    ).toBe(400);
    const renewed = await call<Key>(`/keys/${made.id}`, {
      method: "PATCH",
      body: { name: `trial, extended ${RUN}`, expires_at: inDays(30) },
    });
    expect(renewed.body).toMatchObject({ name: `trial, extended ${RUN}`, state: "active" });
    expect(Date.parse(renewed.body.expires_at ?? "")).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await call("/listings?ticker=MC.PA", { key: made.key, at: inDays(2) })).status).toBe(200);
  });

  it("are refused once revoked: at once by the isolate that revoked, by every other within 60 s", async () => {
    const made = await create({ name: "leaked", kind: "read_only" });
    expect((await call("/listings?ticker=MC.PA", { key: made.key })).status).toBe(200);
    const revoked = await call<Key>(`/keys/${made.id}`, { method: "DELETE" });
    expect(revoked.body.state).toBe("revoked");
    const refused = await call<ErrorBody>("/listings?ticker=MC.PA", { key: made.key });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe("This API key was revoked");
    // Revoking again answers it as it is; an unknown id is a 404.
    expect((await call<Key>(`/keys/${made.id}`, { method: "DELETE" })).body.revoked_at).toBe(revoked.body.revoked_at);
    expect((await call(`/keys/key_ffffffffffffffff`, { method: "DELETE" })).status).toBe(404);

    // Another isolate's revocation (written straight to the database here): this isolate still holds
    // what it read, for at most 60 s; past them it reads the key again and refuses it.
    const other = await create({ name: "revoked elsewhere", kind: "read_only" });
    expect((await call("/listings?ticker=MC.PA", { key: other.key })).status).toBe(200);
    await deps.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, other.id));
    expect((await call("/listings?ticker=MC.PA", { key: other.key })).status).toBe(200);
    const past = new Date(Date.now() + 61_000).toISOString();
    expect((await call<ErrorBody>("/listings?ticker=MC.PA", { key: other.key, at: past })).body.message).toBe(
      "This API key was revoked",
    );
  });

  it("name their requests in the usage log by id, never by the key", async () => {
    const made = await create({ name: "logged", kind: "read_only" });
    const res = await call("/listings?ticker=MC.PA", { key: made.key });
    const requestId = res.headers.get("x-request-id") ?? "";
    const row = async () => (await deps.db.select().from(usageLogs).where(eq(usageLogs.entryId, requestId)))[0];
    await expect.poll(row, { timeout: 10_000, interval: 200 }).toBeDefined();
    expect(await row()).toMatchObject({ keyId: made.id, keyKind: "read_only", route: "/listings" });
  });

  it("give their usage by route family: a key its own, an admin any key's", async () => {
    const made = await create({ name: "measured", kind: "read_only" });
    const other = await create({ name: "someone else", kind: "read_only" });
    const asked = [
      "/listings?ticker=MC.PA",
      "/listings?ticker=AIR.PA",
      "/eod/NOPE!",
      "/exchanges",
      "/assets/by-isin/XX0000000000",
    ];
    const statuses = [];
    for (const path of asked) statuses.push((await call(path, { key: made.key })).status);
    expect(statuses).toEqual([200, 200, 400, 200, 400]);
    type Usage = {
      key: string;
      requests: number;
      errors: number;
      families: { family: string; requests: number; errors: number; p95_ms: number }[];
    };
    // The rows come through the usage queue within seconds (an admin asks, so the asking is not the key's).
    const byAdmin = () => call<Usage>(`/usage?key=${made.id}`);
    await expect.poll(async () => (await byAdmin()).body.requests, { timeout: 10_000, interval: 250 }).toBe(5);
    // The key reads its own (this request's row comes after its answer).
    const own = (await call<Usage>("/usage", { key: made.key })).body;
    expect(own).toMatchObject({ key: made.id, requests: 5, errors: 2 });
    expect(own.families.map((f) => [f.family, f.requests, f.errors])).toEqual([
      ["/listings", 2, 0],
      ["/assets", 1, 1],
      ["/eod", 1, 1],
      ["/exchanges", 1, 0],
    ]);
    expect(own.families.every((f) => f.p95_ms >= 0)).toBe(true);
    // Another key's usage is refused to a key.
    expect((await call(`/usage?key=${made.id}`, { key: other.key })).status).toBe(403);
    // More than 92 days, or a day after today, is a 400.
    expect((await call("/usage?from=2020-01-01&to=2020-12-31")).status).toBe(400);
    expect((await call("/usage?to=9999-12-31")).status).toBe(400);
  });

  it("are one in force per name: a creation sent twice mints one key, a rename to a taken name is a 409", async () => {
    const first = await create({ name: "double click", kind: "read_only" });
    const again = await call<ErrorBody>("/keys", { method: "POST", body: { name: first.name, kind: "read_only" } });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(`A key named '${first.name}' is in force (${first.id})`);
    const second = await create({ name: "second", kind: "read_only" });
    const rename = await call<ErrorBody>(`/keys/${second.id}`, { method: "PATCH", body: { name: first.name } });
    expect(rename.status).toBe(409);
    // Once the first is revoked, its name is free again.
    await call(`/keys/${first.id}`, { method: "DELETE" });
    expect((await call(`/keys/${second.id}`, { method: "PATCH", body: { name: first.name } })).status).toBe(200);
  });

  it("refuse made-up keys of the managed shape like any unknown key", async () => {
    const res = await call<ErrorBody>("/listings?ticker=MC.PA", { key: `mds_${"0".repeat(40)}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Unknown API key");
  });
});
