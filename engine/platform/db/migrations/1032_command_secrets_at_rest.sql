-- Commands written before secrets were sealed kept them in clear (engine/commands/command-secrets.ts
-- seals them now). A final command's charger event is needed no more: it goes. A payload that sets
-- a 1.6 key or a 2.0.1 variable named like a secret ({key, value} or {component, variable, value},
-- as E13 takes them) keeps the name and loses the value; reads mask every other form as well.
UPDATE evc_commands SET event = NULL
WHERE event IS NOT NULL AND status NOT IN ('queued', 'received', 'sent');

UPDATE evc_commands SET payload = jsonb_set(payload, '{value}', '"********"')
WHERE payload ? 'value'
  AND coalesce(payload->>'key', payload->>'variable', '') ~* '(authorizationkey|password|passphrase|secret|privatekey)';
