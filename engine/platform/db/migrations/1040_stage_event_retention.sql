-- Stage events are kept by count per charger (STAGE_EVENTS_MAX_PER_CHARGER) and by age
-- (STAGE_EVENTS_RETENTION_HOURS), like the message log, instead of for the life of the deployment.
-- No foreign keys: each inserted row checked and share-locked its deployment and location row, a
-- third of the table's write cost in a boot storm (70,000 events for 10,000 chargers: 1.57 s ->
-- 1.07 s in PostgreSQL). The insert already skips events of a deleted deployment or location, and
-- the deletes of deployments and locations take their events with them in the same statement.
ALTER TABLE evc_stage_events
  DROP CONSTRAINT evc_stage_events_deployment_id_fkey,
  DROP CONSTRAINT evc_stage_events_location_id_fkey;
-- The count pruning reads a charger's newest events by id.
DROP INDEX evc_stage_events_deployment;
CREATE INDEX evc_stage_events_deployment ON evc_stage_events (deployment_id, id) WHERE deployment_id IS NOT NULL;
-- Rows arrive in time order: a BRIN index finds the old ones for the age retention at almost no
-- cost per insert.
CREATE INDEX evc_stage_events_at ON evc_stage_events USING brin (at);
