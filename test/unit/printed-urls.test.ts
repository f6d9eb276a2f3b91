import { describe, expect, it } from "vitest";
import { assertReachable, printableUrl } from "../../tools/db/connect";

describe("a database URL in the tools' messages", () => {
  it("is printed without its password", async () => {
    const url = "postgres://owner:s3cret-Pa55word@127.0.0.1:9/neondb?sslmode=require";
    expect(printableUrl(url)).toBe("postgres://owner:***@127.0.0.1:9/neondb?sslmode=require");
    const err = await assertReachable(url, "DATABASE_URL").then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain(
      "DATABASE_URL is set but Postgres is unreachable (postgres://owner:***@127.0.0.1:9/neondb",
    );
    expect(err?.message).not.toContain("s3cret-Pa55word");
  });

  it("prints nothing of a value that is no URL", () => {
    expect(printableUrl("owner:s3cret@host")).toBe("(not a Postgres URL)");
    expect(printableUrl("not a url")).toBe("(not a Postgres URL)");
  });
});
