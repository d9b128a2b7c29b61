-- id: secret-on-several-hosts
-- title: One secret seen on several hosts
-- severity: medium
-- attack: T1552.001
-- agents: cline
-- scope: fleet
-- description: A secret (same kind and fingerprint in `secrets`) that rows of two or more hosts hold: a
--   shared key, or a key that travelled from one machine to another through prompts, files the agent
--   read or commands it ran. One finding per row of `events` that holds it, so every place it was seen is
--   listed; the summary names the hosts. Only secrets of rows that are in `events` count (a secondary copy
--   the duplicate rule dropped is the same sighting).
-- false_positives: A team-wide development key or a documented test token (a provider's example key
--   that a detector still matches) used on purpose on several machines.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with sightings as (
  select distinct s.kind, s.fingerprint, e.host, e.session_id, e.row_id, e.timestamp_utc, e.source_file, e.kind as row_kind
  from secrets s
  join events e on e.row_id = s.row_id
),
shared as (
  select kind, fingerprint, count(distinct host) as hosts, string_agg(distinct host, ', ' order by host) as host_list
  from sightings
  group by all
  having count(distinct host) >= 2
)
select s.host, s.session_id, s.row_id, s.timestamp_utc,
  s.kind || ' secret ' || s.fingerprint || ' seen on ' || h.hosts || ' hosts (' || h.host_list || '), here in a ' || s.row_kind || ' row' as summary,
  s.source_file
from sightings s
join shared h using (kind, fingerprint)
