-- Security of virtual chargers (E5 / E7 `security`): the profile and what was given, readable
-- without opening anything, and the secrets (password, CA, client certificate and key) as ONE
-- value sealed with the secret box (AES-256-GCM), bound to the deployment's organization and
-- identity. Never returned by a read.
ALTER TABLE evc_deployments
  ADD COLUMN security_profile smallint NOT NULL DEFAULT 0 CHECK (security_profile BETWEEN 0 AND 3),
  ADD COLUMN security_has_password boolean NOT NULL DEFAULT false,
  ADD COLUMN security_has_client_cert boolean NOT NULL DEFAULT false,
  ADD COLUMN security_sealed text;

-- Chargers of the built-in central system connect with credentials issued for them (profile 1);
-- those deployed before this migration get theirs at their next connection attempt.
UPDATE evc_deployments SET security_profile = 1 WHERE ws_url IS NULL;
