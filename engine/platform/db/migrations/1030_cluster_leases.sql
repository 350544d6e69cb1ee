-- Several engine nodes sharing one fleet (docs/operations.md "Several nodes").
-- One row per node: its presence, renewed with its leases. A node whose `expires_at` is past is
-- gone: its chargers' leases lapse with it, and the charge points it served at its built-in
-- central system are shown offline. `chargers` is what it held at its last renewal (placement
-- sends new chargers to the least-loaded live engine node).
CREATE TABLE evc_nodes (
  node_id text PRIMARY KEY,
  -- This run of the node (node id / run is what the central system records as a connection's node).
  run text NOT NULL,
  role text NOT NULL CHECK (role IN ('api', 'engine', 'all')),
  engine boolean NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  chargers integer NOT NULL DEFAULT 0
);

-- One lease per charger held by a node: the node runs it while the lease lasts, and renews all of
-- its leases in one statement. A lease past `expires_at` may be claimed by any live engine node.
CREATE TABLE evc_charger_leases (
  deployment_id uuid PRIMARY KEY REFERENCES evc_deployments (id) ON DELETE CASCADE,
  node_id text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX evc_charger_leases_node ON evc_charger_leases (node_id);
