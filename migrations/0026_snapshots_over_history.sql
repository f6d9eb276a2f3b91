-- Indicator values are computed over each listing's stored history, up to its newest 5,000 bars
-- (src/domain/indicators/history.ts, HISTORY_BARS), and the screener reads the snapshots written
-- so. Snapshots written over the earlier 500-bar window keep serving the screener until the next
-- refresh of their listing rewrites them: their formula (2, not 3) marks them for it.
UPDATE "indicator_snapshots" SET "window_bars" = 5000 WHERE "window_bars" <> 5000;
