-- E7: a charger of a location that cannot be deployed (unknown model, identity taken, ...) does
-- not stop the others. It has no deployment, so it is kept here with its code and hint and listed
-- by GET /evcharger/deployments (stage not_deployed, outcome failed) until its location is deleted.
CREATE TABLE evc_location_failures (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id text NOT NULL,
  location_id uuid NOT NULL REFERENCES evc_locations (id) ON DELETE CASCADE,
  identity text NOT NULL,
  model text NOT NULL,
  ocpp_version text,
  code text NOT NULL,
  hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evc_location_failures_location ON evc_location_failures (location_id);
CREATE INDEX evc_location_failures_org ON evc_location_failures (organization_id, created_at);

-- The code and hint of a deployment's newest stage event, beside its stage and outcome, so the
-- list says why a charger is offline or failed without reading the event log.
ALTER TABLE evc_deployments ADD COLUMN code text, ADD COLUMN hint text;
