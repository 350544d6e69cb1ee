-- Versioned reference data (catalog, template gallery) loaded from engine/catalog/*.json.
CREATE TABLE data_versions (
  name text PRIMARY KEY,
  version integer NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalog_brands (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Model slugs are unique across the catalog: a deployment names its model without the brand.
CREATE TABLE catalog_models (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE,
  brand_id uuid NOT NULL REFERENCES catalog_brands (id) ON DELETE CASCADE,
  name text NOT NULL,
  connector_count integer NOT NULL,
  current_type text NOT NULL,
  supported_kwh double precision[] NOT NULL,
  connector_types text[] NOT NULL,
  max_power_kw double precision NOT NULL,
  ocpp_versions text[] NOT NULL,
  boot_vendor text NOT NULL,
  boot_model text NOT NULL,
  firmware_version text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX catalog_models_brand ON catalog_models (brand_id);

CREATE TABLE location_templates (
  slug text PRIMARY KEY,
  position integer NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  cpo_name text NOT NULL,
  cpo_slug text NOT NULL,
  party_id text NOT NULL,
  ocpp_version text NOT NULL,
  ocpi_version text NOT NULL,
  connector_type text NOT NULL,
  recommended boolean NOT NULL,
  body jsonb NOT NULL
);
