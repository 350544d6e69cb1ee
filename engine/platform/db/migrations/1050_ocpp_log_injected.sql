-- Link conditions (docs/faults.md): a fault injected on purpose (a dropped, duplicated, reordered
-- or withheld frame) is a message-log item of its own, marked with what was done to the frame.
-- Null for every frame that went as it was.
ALTER TABLE ocpp_log ADD COLUMN injected text;
