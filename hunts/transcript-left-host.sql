-- id: transcript-left-host
-- title: Session transcript copied off the host (blob upload, upload queue, Cline Cloud)
-- severity: low
-- attack: T1567.002
-- agents: cline
-- scope: host
-- description: Each `session synced:` row: a session whose transcript Cline uploaded to an enterprise
--   bucket (S3, R2, GCS, Azure: the bucket and object are in sync_target), uploaded through the queue
--   (an item of the extension's sync-queue.json marked synced), or that Cline Cloud holds. A queue item still
--   pending or failed is not a finding. What the agent read, typed and ran in
--   that session, secrets included, is then also on that storage. The summary names where it went.
-- false_positives: An organisation's own configured prompt archive (enterprise blobUpload) and Cline
--   Cloud sessions the user started on purpose are expected: check the bucket against the
--   organisation's configuration.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
select host, session_id, row_id, timestamp_utc,
  'transcript of session ' || coalesce(session_id, '?') || ' left the host: ' || coalesce(sync_target, 'unknown target') as summary,
  source_file
from events
where kind = 'sync' and text like 'session synced:%'
