-- The fleet lists identities in natural order (CP-2 before CP-10, BIG-1000 after BIG-999): the
-- sort key writes each run of digits as its length (two digits) and its value without leading
-- zeros, so comparing keys as text compares the numbers. Indexed with the organization, so a page
-- of a large fleet is read in key order instead of sorting every row.
CREATE FUNCTION evc_natural_key(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT coalesce(string_agg(
    CASE WHEN m.part[1] IS NULL THEN m.part[2]
         ELSE lpad(length(ltrim(m.part[1], '0'))::text, 2, '0') || ltrim(m.part[1], '0') END,
    '' ORDER BY m.n), '')
  FROM regexp_matches(s, '([0-9]+)|([^0-9]+)', 'g') WITH ORDINALITY AS m(part, n)
$$;

CREATE INDEX evc_deployments_org_natural ON evc_deployments (organization_id, evc_natural_key(identity), identity, id);
