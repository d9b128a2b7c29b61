-- id: unapproved-destructive-command
-- title: Destructive or privileged command run with no human approval
-- severity: high
-- attack: T1485, T1548.003, T1222.002, T1059.004
-- agents: cline, roo-code, kilo-code
-- scope: host
-- description: A command Cline ran, read as a shell would (commands.command_read: the strings of sh -c and
--   bash -c, variables set earlier in the line, base64 payloads piped into a shell), that deletes a tree
--   (rm -rf, find -delete or -exec rm, an interpreter one-liner: python -c shutil.rmtree, node -e fs.rmSync,
--   perl -e remove_tree, ruby FileUtils.rm_r), runs as root (sudo, doas, su -c), rewrites remote history (git
--   push --force or +branch), opens permissions (chmod 777, a+rwx), wipes or formats a disk (mkfs, dd of=/dev/,
--   wipefs, shred, fdisk, parted), drops a database (DROP DATABASE/TABLE/SCHEMA, TRUNCATE TABLE, dropdb,
--   FLUSHALL), pipes a download into a shell (curl|sh) or downloads a file and then runs it (curl -o f && sh f),
--   while no human approved it (commands.approval = auto: a legacy say:command, a hook policy's autoApprove, a
--   yolo session, or an SDK command in a home whose standing settings approve every command; a Roo Code or Kilo
--   Code command, whose ask: is written approved or not, when that agent's settings in the same editor approve
--   it: yolo, or its allowedCommands and deniedCommands read as prefixes; sql/42). A call
--   whose result says it was denied or not approved never ran and is left out. One finding per call.
-- false_positives: Routine clean-up of build output (rm -rf node_modules, dist) in a yolo session; sudo
--   package installs on a throw-away VM or CI runner; an SDK session in a home whose standing settings
--   approve every command but whose CLI asked anyway (the transcript does not record the approval).
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with auto_commands as (
    select *,
        regexp_extract(command_read, '\b(?:curl|wget)\s[^\n;|&]*?\s(?:-o|--output|-O)\s*([^\s;&|]+)', 1) as downloaded
    from commands
    where approval = 'auto'
),

classified as (
    select *,
        case
            when regexp_matches(command_read, '(^|[\s;&|(`])rm\s+(-[a-z]*r[a-z]*f|-[a-z]*f[a-z]*r|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)', 'i')
                then 'recursive forced delete (rm -rf)'
            when regexp_matches(command_read, '(^|[\s;&|(`])find\s[^\n;|]*\s(-delete\b|-exec\s+rm\s)', 'i')
                then 'tree deletion (find -delete)'
            when regexp_matches(command_read, '\b(python[0-9.]*|node|nodejs|perl|ruby|php|deno|bun)\s[^\n]*(shutil\.rmtree|os\.removedirs|\.rm(dir)?Sync\s*\(|fs\.promises\.rm\s*\(|remove_tree|\brmtree\b|FileUtils\.rm_r)', 'i')
                then 'tree deletion by an interpreter one-liner'
            when regexp_matches(command_read, '(curl|wget)\s[^\n;]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b', 'i')
                then 'download piped into a shell'
            when downloaded <> '' and regexp_matches(command_read,
                '(^|[\s;&|(`])(sudo\s+)?((ba|z|da|k)?sh|source|\.)\s+' || regexp_escape(downloaded) || '($|[\s;&|)])')
                then 'download, then run'
            when regexp_matches(command_read, '(^|[\s;&|(`])(sudo|doas)\s+\S|(^|[\s;&|(`])su\s+(-c|-|root)', 'i')
                then 'privileged command (sudo/su)'
            when regexp_matches(command_read, 'git\s+push\b[^\n;]*(\s--force\b|\s-f\b|\s--force-with-lease\b|\s\+[\w./-]+)', 'i')
                then 'forced git push'
            when regexp_matches(command_read, 'chmod\s+(-[a-z]+\s+)*(0?777|a\+rwx|ugo\+rwx)\b', 'i')
                then 'world-writable permissions (chmod 777)'
            when regexp_matches(command_read, '(^|[\s;&|(`])(mkfs(\.\w+)?|wipefs|shred|fdisk|parted|sgdisk)\s|\bdd\s[^\n;]*of=/dev/|>\s*/dev/(sd|nvme|hd|xvd|disk)', 'i')
                then 'disk wipe or format'
            when regexp_matches(command_read, '\bdrop\s+(database|schema|table)\b|\btruncate\s+table\b|(^|[\s;&|(`])dropdb\s|\bflushall\b|dropDatabase\(', 'i')
                then 'database drop'
        end as what
    from auto_commands
)

select host, session_id, row_id, timestamp_utc,
    what || ' run without approval (' || approval_reason || '): ' || left(command, 300) as summary,
    source_file
from classified
where what is not null
