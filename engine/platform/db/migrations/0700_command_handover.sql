-- Commands across crashes (docs/commands.md). The node that takes a command records itself in
-- `taken_by` (node id / run) in the same statement that moves the command on, and hands it to the
-- charger only after that statement: the database knows whether a command may have reached the
-- charger. `interrupted` is the final status of a command handed to a charger whose engine node
-- stopped before the outcome was recorded: it may have reached the central system, so it is never
-- run again. `event` is the charger event of the command, so a node that takes a charger over can
-- run its queued commands without their MQTT messages.
ALTER TABLE evc_commands DROP CONSTRAINT evc_commands_status_check;
ALTER TABLE evc_commands ADD CONSTRAINT evc_commands_status_check CHECK (
  status IN ('queued', 'received', 'sent', 'completed', 'rejected', 'failed', 'timed_out', 'interrupted'));
ALTER TABLE evc_commands ADD COLUMN taken_by text;
ALTER TABLE evc_commands ADD COLUMN event jsonb;
-- The open commands of the chargers a node starts holding.
CREATE INDEX evc_commands_open_charger ON evc_commands (deployment_id, created_at)
  WHERE status IN ('queued', 'received', 'sent');
