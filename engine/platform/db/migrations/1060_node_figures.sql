-- What each engine node measured of the central system under test (engine/metrics, issue 36):
-- one row per node, its cumulative figures and its windows as JSON, rewritten every few seconds.
-- /metrics and the fleet's csms-latency sum the rows of the live nodes (evc_nodes).
CREATE TABLE evc_node_figures (
  node_id text PRIMARY KEY,
  written_at timestamptz NOT NULL DEFAULT now(),
  figures jsonb NOT NULL
);
