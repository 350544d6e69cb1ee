-- eMSP area and OCPI roaming: partners, tokens, roaming identities, tariffs, idempotency keys.

-- Roaming partners an organization exchanges OCPI calls with. `token` is the credentials token
-- sent as `Authorization: Token <token>`; it is never returned by the API.
CREATE TABLE roaming_partners (
  id bigserial PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('CPO', 'EMSP')),
  country_code text NOT NULL,
  party_id text NOT NULL,
  ocpi_version text NOT NULL,
  token text NOT NULL,
  endpoints jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, role, country_code, party_id)
);

CREATE TABLE emsp_tokens (
  id bigserial PRIMARY KEY,
  organization_id text NOT NULL,
  uid text NOT NULL,
  type text NOT NULL,
  contract_id text NOT NULL,
  issuer text NOT NULL,
  country_code text NOT NULL,
  party_id text NOT NULL,
  whitelist text NOT NULL,
  ocpi_version text NOT NULL,
  status text NOT NULL CHECK (status IN ('PROVISIONED', 'ACTIVE', 'BLOCKED', 'EXPIRED', 'INVALIDATED')),
  visual_number text,
  group_id text,
  language text,
  valid_from timestamptz,
  valid_until timestamptz,
  metadata jsonb,
  status_reason text,
  invalidated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_updated timestamptz NOT NULL DEFAULT now(),
  -- OCPI identifies a token by issuer party and uid (the type is a query parameter, not identity).
  UNIQUE (organization_id, country_code, party_id, uid)
);

-- The (country_code, party_id) pairs an organization issues tokens under; once per organization.
CREATE TABLE emsp_emp_identities (
  emp_identity_id bigserial PRIMARY KEY,
  organization_id text NOT NULL,
  country_code text NOT NULL,
  party_id text NOT NULL,
  protocol text NOT NULL DEFAULT 'OCPI',
  default_network_access boolean NOT NULL DEFAULT true,
  status text NOT NULL DEFAULT 'ACTIVE',
  label text,
  contact_email text,
  contact_phone text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, country_code, party_id)
);

-- Tariffs CPO partners published, stored in OCPI 2.2.1 shape.
CREATE TABLE emsp_tariffs (
  organization_id text NOT NULL,
  country_code text NOT NULL,
  party_id text NOT NULL,
  tariff_id text NOT NULL,
  tariff jsonb NOT NULL,
  last_updated timestamptz NOT NULL,
  PRIMARY KEY (organization_id, country_code, party_id, tariff_id)
);

-- Idempotency-Key records. A row is inserted 'in_progress' before acting (the primary key makes
-- concurrent duplicates lose the insert), then completed with the answer to replay.
CREATE TABLE idempotency_keys (
  organization_id text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'done')),
  status integer,
  body jsonb,
  locked_until timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
