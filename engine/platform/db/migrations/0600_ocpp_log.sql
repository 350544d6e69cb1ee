-- The OCPP message log: every frame a virtual charger or the built-in central system sent or
-- received. `charger_id` is the deployment id (the virtual charger's side) or the charge point's id
-- (the central system's side); readers reach it only through an owner row of their organization,
-- so the log needs no organization of its own. `id` increases per charger (microseconds of capture,
-- bumped past the previous id), which is what `before` pages on. `frame` is json, not jsonb: the
-- exact text that crossed the wire. Written behind in multi-row batches; no foreign key, so a
-- deleted charger's rows cost its deletion nothing and leave with the age retention.
CREATE TABLE ocpp_log (
  charger_id uuid NOT NULL,
  id bigint NOT NULL,
  at timestamptz NOT NULL,
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  type smallint,
  message_id text,
  action text,
  frame json NOT NULL,
  error text,
  PRIMARY KEY (charger_id, id)
);
-- Rows arrive in time order: a BRIN index finds the old ones for the age retention at almost no
-- cost per insert.
CREATE INDEX ocpp_log_at ON ocpp_log USING brin (at);
