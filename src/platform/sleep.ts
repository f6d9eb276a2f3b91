/** Waits `ms` milliseconds: the one pause of the service (pacing, a lease's wait, a retry's back-off). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
