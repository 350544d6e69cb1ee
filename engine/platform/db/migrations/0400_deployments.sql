-- Virtual charger deployments (E5-E10): locations, deployments with their persisted XState
-- snapshot, the stage-event log, and background jobs that survive a restart.

-- A location posted through E7 with its chargers (the body is kept as posted).
CREATE TABLE evc_locations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id text NOT NULL,
  name text NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evc_locations_org ON evc_locations (organization_id);

-- One virtual charger. `desired` is what the user asked for (running chargers are rehydrated at
-- start); stage/outcome/attempt mirror the newest stage event, so reads never touch an actor.
-- `snapshot` is the actor's persisted snapshot, written behind in batches; `snapshot_version` is
-- the charger machine's SNAPSHOT_VERSION it was taken with (another version is redeployed instead).
CREATE TABLE evc_deployments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id text NOT NULL,
  location_id uuid REFERENCES evc_locations (id) ON DELETE CASCADE,
  identity text NOT NULL,
  model text NOT NULL,
  charger_model jsonb NOT NULL,
  brand_slug text,
  connector_type text,
  charger_name text,
  ocpp_version text NOT NULL,
  ws_url text,
  desired text NOT NULL DEFAULT 'running' CHECK (desired IN ('running', 'stopped')),
  stage text NOT NULL DEFAULT 'not_deployed',
  outcome text NOT NULL DEFAULT 'in_progress',
  attempt integer NOT NULL DEFAULT 1,
  snapshot jsonb,
  snapshot_version integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Deletes are hard: an existing row is a live deployment.
  UNIQUE (organization_id, identity)
);
CREATE INDEX evc_deployments_location ON evc_deployments (location_id) WHERE location_id IS NOT NULL;
CREATE INDEX evc_deployments_desired ON evc_deployments (desired);

-- The stage-event log read by E10, newest first. A charger of a location that failed before it had
-- a deployment row keeps only its location.
CREATE TABLE evc_stage_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id text NOT NULL,
  deployment_id uuid REFERENCES evc_deployments (id) ON DELETE CASCADE,
  location_id uuid REFERENCES evc_locations (id) ON DELETE CASCADE,
  identity text NOT NULL,
  attempt integer NOT NULL,
  stage text NOT NULL,
  outcome text NOT NULL,
  at timestamptz NOT NULL,
  code text,
  hint text
);
CREATE INDEX evc_stage_events_org_at ON evc_stage_events (organization_id, at DESC, id DESC);
CREATE INDEX evc_stage_events_org_identity ON evc_stage_events (organization_id, identity, at DESC, id DESC);
CREATE INDEX evc_stage_events_deployment ON evc_stage_events (deployment_id);
CREATE INDEX evc_stage_events_location ON evc_stage_events (location_id) WHERE location_id IS NOT NULL;

-- Background work (E7 location deployment, E9 location fan-out): resumed at start until done.
-- `targets` is the work list fixed when the job was accepted; `done` counts the finished head of it.
CREATE TABLE evc_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('deploy_location', 'runtime_op')),
  location_id uuid NOT NULL REFERENCES evc_locations (id) ON DELETE CASCADE,
  action text,
  targets jsonb NOT NULL,
  done integer NOT NULL DEFAULT 0,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evc_jobs_pending ON evc_jobs (created_at) WHERE finished_at IS NULL;
