-- Tasks of the A2A agent (surfaces/a2a), in the layout @a2a-js/sdk's DatabaseTaskStore reads and
-- writes (its own migration "0001_create_tasks", under another table name). Every row carries
-- its owner (the credential's account or team): a task is found only by the owner that made it,
-- at any instance sharing the database.
create table a2a_tasks (
  tenant              varchar(255) collate "C" not null,
  owner               varchar(255) collate "C" not null,
  id                  varchar(36) collate "C" not null,
  context_id          varchar(36) collate "C" not null,
  status_last_updated bigint not null,
  status_state        varchar(255) collate "C",
  status              text,
  artifacts           text,
  history             text,
  metadata            text,
  protocol_version    varchar(255),
  constraint a2a_tasks_pkey primary key (tenant, owner, id)
);
create index a2a_tasks_scope_updated_idx on a2a_tasks (tenant, owner, status_last_updated, id);
create index a2a_tasks_scope_context_updated_idx on a2a_tasks (tenant, owner, context_id, status_last_updated, id);
