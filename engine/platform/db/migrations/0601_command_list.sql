-- GET /evcharger/commands: an organization's commands newest first, optionally of one deployment.
CREATE INDEX evc_commands_org_created ON evc_commands (organization_id, created_at DESC, id DESC);
CREATE INDEX evc_commands_deployment_created ON evc_commands (deployment_id, created_at DESC, id DESC);
