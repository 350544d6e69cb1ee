-- Partner credentials tokens are sealed at rest (AES-256-GCM, engine/secrets/secret-box.ts).
-- The column holds the sealed form; rows written before this migration cannot be opened and are
-- removed (no release stored plaintext tokens).
DELETE FROM roaming_partners;
ALTER TABLE roaming_partners RENAME COLUMN token TO token_sealed;
