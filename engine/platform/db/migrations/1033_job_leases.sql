-- A background job (E7 location deployment, E9 fan-out) belongs to the API node running it, for as
-- long as that node's presence (evc_nodes) lives, like a charger's lease: when the node dies, any
-- live API node takes the job over where its progress was. Jobs written before have no node: the
-- first API node to look takes them.
ALTER TABLE evc_jobs ADD COLUMN node_id text;
