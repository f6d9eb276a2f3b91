import { createServer } from "node:net";

/** Whether `port` (0: any) can be bound on 127.0.0.1 right now; answers the port bound. */
function bindable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(null));
    srv.listen(port, "127.0.0.1", () => {
      const bound = (srv.address() as { port: number }).port;
      srv.close(() => resolve(bound));
    });
  });
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const port = await bindable(0);
  if (port === null) throw new Error("no free TCP port on 127.0.0.1");
  return port;
}

/**
 * Linux hands out ephemeral ports from 32768 up (ip_local_port_range); a port below it is never
 * what another process's `listen(0)` gets.
 */
const FIXED_RANGE = { from: 20_000, to: 32_000 };

/**
 * A free port for a process started later that other processes will start beside (the service of
 * `npm run dev:sandbox`, whose simulators listen on ports the OS picks): chosen below the ephemeral
 * range, so that none of them can be handed the same port between this check and its bind.
 */
export async function freeFixedPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = FIXED_RANGE.from + Math.floor(Math.random() * (FIXED_RANGE.to - FIXED_RANGE.from));
    if ((await bindable(candidate)) !== null) return candidate;
  }
  return freePort();
}
