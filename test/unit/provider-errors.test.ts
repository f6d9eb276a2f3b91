import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/providers/errors";
import { causeOf, getText } from "../../src/providers/http";

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe("a provider that cannot be reached", () => {
  it("is reported with its host and the cause, not the runtime's text", async () => {
    const port = await closedPort();
    const err = await getText("delayed_provider", `http://127.0.0.1:${port}/v8/finance/chart/MC.PA?token=secret`, {
      timeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({
      failure: "unavailable",
      detail: `could not reach 127.0.0.1:${port} (connection refused)`,
    });
  });

  it("names the causes the runtimes give in their own words", () => {
    const node = (code: string) => Object.assign(new TypeError("fetch failed"), { cause: { code } });
    expect(causeOf(node("ENOTFOUND"))).toBe("the host name could not be resolved");
    expect(causeOf(node("EAI_AGAIN"))).toBe("the host name could not be resolved");
    expect(causeOf(node("ECONNRESET"))).toBe("the connection was dropped");
    expect(causeOf(new Error("internal error; reference = n0fkr7a2b9"))).toBe(
      "no connection could be made: offline, blocked, or the host is down (the runtime gives no detail)",
    );
    expect(causeOf(new Error("Network connection lost."))).toBe("the connection was dropped");
    // Anything else is quoted, with key-like parameters taken out.
    expect(causeOf(new Error("odd failure at https://x.test/?apikey=abc123"))).toBe(
      "odd failure at https://x.test/?apikey=…",
    );
  });
});
