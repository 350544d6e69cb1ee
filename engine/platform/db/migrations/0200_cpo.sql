-- CPO area: locations in OCPI shape, token and voucher groups, tariff signing keys, charge points
-- of the built-in central system with their connectors, sessions and operations (E20-E25).

CREATE TABLE cpo_locations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id text NOT NULL,
  location_id text NOT NULL,
  country_code text NOT NULL,
  party_id text NOT NULL,
  publish boolean NOT NULL DEFAULT true,
  address text NOT NULL,
  city text NOT NULL,
  country text NOT NULL,
  coordinates jsonb NOT NULL,
  time_zone text NOT NULL,
  role text NOT NULL,
  origin text NOT NULL,
  ocpi_version text NOT NULL,
  -- Millisecond precision: If-Match compares it with the value a client read as JSON.
  last_updated timestamptz NOT NULL,
  revision integer NOT NULL DEFAULT 1,
  publish_allowed_to jsonb,
  name text,
  postal_code text,
  state text,
  related_locations jsonb,
  parking_type text,
  parking_places jsonb,
  directions jsonb,
  operator jsonb,
  suboperator jsonb,
  owner jsonb,
  facilities jsonb,
  opening_times jsonb,
  charging_when_closed boolean,
  images jsonb,
  energy_mix jsonb,
  help_phone text,
  ocpp_version text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
-- A deleted location keeps its row (token groups still list it) but frees its location_id.
CREATE UNIQUE INDEX cpo_locations_live_id ON cpo_locations (organization_id, location_id)
  WHERE deleted_at IS NULL;

CREATE TABLE cpo_token_groups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cpo_token_groups_org ON cpo_token_groups (organization_id);

CREATE TABLE cpo_token_group_locations (
  group_id bigint NOT NULL REFERENCES cpo_token_groups (id) ON DELETE CASCADE,
  location_pk bigint NOT NULL REFERENCES cpo_locations (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, location_pk)
);

CREATE TABLE cpo_voucher_groups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cpo_voucher_groups_org ON cpo_voucher_groups (organization_id);

CREATE TABLE cpo_vouchers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  group_id bigint NOT NULL REFERENCES cpo_voucher_groups (id) ON DELETE CASCADE,
  code text NOT NULL
);
CREATE INDEX cpo_vouchers_group ON cpo_vouchers (group_id);

-- The newest key of an organization signs its tariffs. private_key_enc is AES-256-GCM sealed.
CREATE TABLE cpo_signing_keys (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id text NOT NULL,
  key_id text NOT NULL,
  algorithm text NOT NULL,
  public_key_pem text NOT NULL,
  private_key_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cpo_signing_keys_org ON cpo_signing_keys (organization_id, id DESC);

CREATE TABLE cpo_charge_points (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id text NOT NULL,
  -- The OCPP identity: unique across the service, since the OCPP URL carries no organization.
  charge_point_id text NOT NULL UNIQUE,
  is_online boolean NOT NULL DEFAULT false,
  is_roaming boolean NOT NULL DEFAULT false,
  use_status_notification_0 boolean NOT NULL DEFAULT true,
  revision integer NOT NULL DEFAULT 1,
  ocpp_version text,
  charge_point_vendor text,
  charge_point_model text,
  charge_point_serial_number text,
  charge_box_serial_number text,
  firmware_version text,
  last_heartbeat timestamptz,
  iccid text,
  imsi text,
  meter_type text,
  meter_serial_number text,
  coordinates text,
  floor_level text,
  parking_restrictions jsonb,
  capabilities jsonb,
  max_power_kw double precision,
  connector_type text,
  connector_count integer,
  accessibility text,
  location_id bigint REFERENCES cpo_locations (id),
  image_url text,
  proxy_urls jsonb,
  responded_at timestamptz,
  -- Basic auth at the OCPP endpoint: salted SHA-256 of a random password (never stored in clear).
  password_salt text,
  password_hash text,
  -- Which central-system node holds the WebSocket (so a node going away only clears its own).
  node_id text,
  connected_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cpo_charge_points_org ON cpo_charge_points (organization_id);
CREATE INDEX cpo_charge_points_node ON cpo_charge_points (node_id) WHERE node_id IS NOT NULL;

-- OCPP 2.x terms: an EVSE with connectors. OCPP 1.6 connector N is EVSE N connector 1;
-- connector 0 (the whole charge point) is EVSE 0 connector 0.
CREATE TABLE cpo_connector_status (
  charge_point_pk uuid NOT NULL REFERENCES cpo_charge_points (id) ON DELETE CASCADE,
  evse_id integer NOT NULL,
  connector_id integer NOT NULL,
  status text NOT NULL,
  error_code text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (charge_point_pk, evse_id, connector_id)
);

CREATE TABLE cpo_sessions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  charge_point_pk uuid NOT NULL REFERENCES cpo_charge_points (id) ON DELETE CASCADE,
  transaction_id text NOT NULL,
  evse_id integer,
  connector_id integer,
  id_tag text,
  status text NOT NULL,
  meter_start_wh double precision,
  meter_last_wh double precision,
  meter_stop_wh double precision,
  started_at timestamptz,
  stopped_at timestamptz,
  stop_reason text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (charge_point_pk, transaction_id)
);

-- Operations sent to a charge point through the node holding its connection (E23 reboot).
CREATE TABLE cpo_operations (
  tracking_id uuid PRIMARY KEY,
  organization_id text NOT NULL,
  charge_point_pk uuid NOT NULL REFERENCES cpo_charge_points (id) ON DELETE CASCADE,
  action text NOT NULL,
  request jsonb NOT NULL,
  status text NOT NULL,
  response jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  responded_at timestamptz
);

-- OCPP 1.6 transaction ids are integers the central system hands out.
CREATE SEQUENCE cpo_transaction_ids;
