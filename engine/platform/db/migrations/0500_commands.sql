-- Commands to virtual chargers (E11-E16). The API inserts a row (queued) and publishes one MQTT
-- message; the engine node holding the charger marks it received, sent, then final. No foreign key
-- to evc_deployments: a command outlives the deletion of its charger and stays readable through E16.
CREATE TABLE evc_commands (
  id uuid PRIMARY KEY,
  organization_id text NOT NULL,
  deployment_id uuid NOT NULL,
  identity text NOT NULL,
  event_type text NOT NULL,
  ocpp_version text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'received', 'sent', 'completed', 'rejected', 'failed', 'timed_out')),
  response jsonb,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  received_at timestamptz,
  sent_at timestamptz,
  completed_at timestamptz,
  -- Past this instant a command that is not final ends timed_out (one periodic sweep, no timers).
  deadline_at timestamptz NOT NULL
);
CREATE INDEX evc_commands_open ON evc_commands (deadline_at)
  WHERE status IN ('queued', 'received', 'sent');
