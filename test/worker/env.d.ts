// Tells the Workers types what the main module exports, so `exports.default.fetch` is typed in tests.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../../src/index");
  }
}
