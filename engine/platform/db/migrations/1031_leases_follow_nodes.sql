-- A charger's lease now lasts as long as its node's presence (evc_nodes.expires_at): a node
-- renews one row per tick instead of every lease it holds (10,000 rows every 5 s at 10,000
-- chargers). A lease whose node is not live may be claimed by any live engine node.
ALTER TABLE evc_charger_leases DROP COLUMN expires_at;
