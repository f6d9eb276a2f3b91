import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/errors";
import { getText, MAX_ANSWER_BYTES } from "../../src/providers/http";

/** A provider that answers each path its own way: oversized bodies, announced or streamed, and redirects. */
let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/announced") {
      res.writeHead(200, { "content-length": String(MAX_ANSWER_BYTES + 1) });
      res.end();
    } else if (req.url === "/streamed") {
      // No length announced: a megabyte at a time until past the cap (the client lets go first).
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(1024 * 1024, "x");
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_ANSWER_BYTES && res.write(chunk)) sent += chunk.length;
        if (sent <= MAX_ANSWER_BYTES) res.once("drain", pump);
        else res.end();
      };
      res.on("error", () => undefined);
      pump();
    } else if (req.url === "/moved") {
      res.writeHead(301, { location: "/here" }).end();
    } else if (req.url === "/other-port") {
      res.writeHead(302, { location: "http://127.0.0.1:9/here" }).end();
    } else if (req.url === "/elsewhere") {
      res.writeHead(302, { location: "http://metadata.internal/latest" }).end();
    } else {
      res.writeHead(200, { "content-type": "text/plain" }).end("the answer");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = (path: string) => getText("test_provider", `${base}${path}`, { timeoutMs: 10_000 });
const failure = (path: string) =>
  get(path).then(
    () => null,
    (e: unknown) => e as ProviderError,
  );

describe("a provider's answer", () => {
  it("over the size cap is a bad response, whether its length is announced or streamed", async () => {
    for (const path of ["/announced", "/streamed"]) {
      const err = await failure(path);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({
        failure: "bad_response",
        detail: expect.stringContaining(`an answer over ${MAX_ANSWER_BYTES} bytes`),
      });
    }
  });

  it("follows a redirect on its own host, and refuses one to another host", async () => {
    expect(await get("/moved")).toEqual({ status: 200, text: "the answer" });
    const port = await failure("/other-port");
    expect(port).toMatchObject({ failure: "bad_response", detail: expect.stringContaining("(127.0.0.1:9, http:)") });
    const err = await failure("/elsewhere");
    expect(err).toMatchObject({
      failure: "bad_response",
      detail: expect.stringContaining("a redirect to another host (metadata.internal, http:)"),
    });
  });
});
