-- hosts: every host image a load of this OUT was given or holds data of, with where it was found, when it
-- was loaded, what it holds and its status, so "where did we find nothing" is one query. Inputs: raw_runs
-- (each run's host_images: name, image path, what the load found), raw_files (what each host's partitions
-- read, and the users of their homes). Grain: one row per host.
--   status: the status of its last load (loaded, no Cline data, unreadable, encrypted, kept after empty image), or
--   `absent from last input` when the newest run that covered it was not given it (its data kept,
--   load/membership.ts); a shard load covers only the hosts of its shard. `shard not loaded`: the newest
--   run of its shard did not finish, or `clinetrail models` found its shard not run (load/split-check.ts);
--   those records name the host but are no load given it, so the times leave out the second kind.
-- A view, as load_runs is: a load that changed no partition keeps fleet.duckdb, and its run still counts.
create or replace view hosts as
with seen as (
    select
        r.started_at, h.host, h.image_path, h.status, h.hostname, h.collection, h.time_zone,
        coalesce(r.shard_missing, false) as shard_missing
    from raw_runs as r, unnest(r.host_images) as u(h)
    where r.host_images is not null
),

per_host as (
    select
        host,
        arg_max(image_path, started_at) as image_path,
        arg_max(coalesce(hostname, host), started_at) as hostname,
        arg_max(collection, started_at) as collection,
        -- the zone of its last load (null when that load was given none: its partitions were read as UTC)
        arg_max_null(time_zone, started_at) filter (where not shard_missing) as time_zone,
        min(started_at) filter (where not shard_missing) as first_seen_at_utc,
        min(started_at) filter (where status = 'loaded') as first_loaded_at_utc,
        max(started_at) filter (where status = 'loaded') as last_loaded_at_utc,
        max(started_at) filter (where not shard_missing) as last_seen_at_utc,
        max(started_at) as last_named_at,
        arg_max(status, started_at) as last_status
    from seen
    group by host
),

held as (
    select
        host,
        list(distinct store order by store) filter (where store <> 'discovery') as stores,
        list(distinct user order by user) filter (where user is not null) as users,
        list_sort(list_distinct(flatten(list(coalesce(agents, []))))) as agents,
        count(*) as count_files,
        coalesce(sum(rows), 0) as count_rows,
        coalesce(sum(errors), 0) as count_parser_errors
    from raw_files
    group by host
),

-- the newest run whose input covered each host: every plain load, and a shard load (`--shard K/N`) of
-- the hosts of its shard, shard_of(host) = first 4 bytes of sha256(host) as uint32 mod N + 1 (load/shard.ts):
-- a split in N runs is N runs, and a host is absent only when the newest run of its own shard lacked it
host_hash as (
    select host, ('0x' || left(sha256(host), 8))::ubigint as word
    from per_host
),

newest as (
    select h.host, max(r.started_at) as started_at
    from host_hash as h, raw_runs as r
    where r.shard_count is null or h.word % r.shard_count::ubigint + 1 = r.shard_index
    group by h.host
)

select
    coalesce(p.host, h.host) as host,
    coalesce(p.hostname, h.host) as hostname,
    p.image_path,
    p.collection,
    p.time_zone,
    case
        when p.host is null then 'loaded'
        when p.last_named_at < n.started_at then 'absent from last input'
        else p.last_status
    end as status,
    p.first_seen_at_utc,
    p.first_loaded_at_utc,
    p.last_loaded_at_utc,
    p.last_seen_at_utc,
    coalesce(h.stores, []) as stores,
    coalesce(h.users, []) as users,
    coalesce(h.agents, []) as agents,
    coalesce(h.count_files, 0) as count_files,
    coalesce(h.count_rows, 0) as count_rows,
    coalesce(h.count_parser_errors, 0) as count_parser_errors
from per_host as p
full join held as h on h.host = p.host
left join newest as n on n.host = p.host
order by host;

comment on view hosts is 'Every host image loaded or seen on this OUT: image path, loads, what it holds and its status. Grain: one row per host.';
comment on column hosts.host is 'Host image name, whole however long: the host name its image claims, or NAME#2, NAME#3, ... when another image of the load claims NAME too.';
comment on column hosts.hostname is 'The host name its image claims at its last load (a collection''s Hostname, a folder or archive name, a --host NAME): the same for every image of one machine, host apart.';
comment on column hosts.image_path is 'Path of its image at its last load (as given: --fleet child folder or --host PATH; a Velociraptor hunt download for each of its clients).';
comment on column hosts.collection is 'Its client folder in a Velociraptor hunt download (<Hostname>-<ClientId>, as stored); null for an image of one host.';
comment on column hosts.time_zone is 'The IANA zone its local clocks were read in at its last load (--host-tz HOST=Area/City): the times of rows with timestamp_source local_clock (1.x cline-core and Go host logs); null when none was given, and they were read as if UTC.';
comment on column hosts.status is 'loaded, no Cline data, unreadable (its archive could not be listed, or discovery could not search all of it; exit 5), encrypted (its archive is encrypted and no --zip-password-file password opens it; exit 5, its earlier data kept), kept after empty image (exit 4: its earlier data kept), absent from last input (the newest load that covered it, plain or of its shard, was not given it; its data kept), or shard not loaded (the newest run of its shard did not finish, or its shard did not run: clinetrail models exit 6; what it holds is from earlier loads, see last_loaded_at_utc). A shard load covers only the hosts of its shard: after a split load each host''s status is its own shard''s.';
comment on column hosts.first_seen_at_utc is 'Start of the first load given it (null for a host only named by a shard that did not run).';
comment on column hosts.first_loaded_at_utc is 'Start of the first load that found Cline data in it.';
comment on column hosts.last_loaded_at_utc is 'Start of the last load that found Cline data in it.';
comment on column hosts.last_seen_at_utc is 'Start of the last load given it.';
comment on column hosts.stores is 'Stores the warehouse holds of it, sorted (discovery left out).';
comment on column hosts.users is 'Users of the homes the warehouse holds files of on it, sorted (homes whose layout says no user left out): one host, several people. events, sessions and files have each row''s user.';
comment on column hosts.agents is 'Agents of the Cline family the warehouse holds records of on it (cline, roo-code, kilo-code), sorted: Roo Code and Kilo Code beside Cline on one machine.';
comment on column hosts.count_files is 'Evidence files its partitions read (discovery problems included).';
comment on column hosts.count_rows is 'Rows its partitions hold, parser rows included.';
comment on column hosts.count_parser_errors is 'parser: rows of its partitions.';
