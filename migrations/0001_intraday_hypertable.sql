-- prices_intraday becomes a TimescaleDB hypertable where the extension can be installed (Neon offers it);
-- local Postgres and PGlite do not have it, and the plain table from 0000 is kept there.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb') THEN
    CREATE EXTENSION IF NOT EXISTS timescaledb;
    PERFORM create_hypertable('prices_intraday', 'minute', if_not_exists => TRUE, migrate_data => TRUE);
  END IF;
END
$$;
