/**
 * The tool results a legacy task's next request carried back to the model (issue 27). The 1.x and 2.x engines
 * record a file the agent read, a denied command and most tools' output only there: the `say:api_req_started`
 * message's `request` is the user turn sent next, its content blocks joined by blank lines, each tool's result
 * first: `[read_file for 'app.py'] Result:\n...` (XML tool calls) or `[Tool]\n[execute_command for '...']
 * Result:\n...` (native tool calls, a `tool_result` block). The engine then appends its own blocks (the
 * `# task_progress` reminder, `<environment_details>`), which end a result. The api history holds the same
 * blocks; the request is read because it sits in ui_messages.json beside the tool use it answers.
 * The results of final-answer tools (attempt_completion, plan_mode_respond, ask_followup_question) are the
 * user's reply, which the task records as its own `user_feedback` message, so they give no result here.
 */

/** One tool result of a request: the tool its header names and its text, header included. */
export interface RequestResult {
  tool: string;
  text: string;
  /** The block was a native `tool_result` marked `is_error` (`[Tool (Error)]`). */
  isError: boolean;
}

/** A result's first line: `[name for '...'] Result:` or `[name] Result:`. */
const HEADER = /^\[([A-Za-z_][A-Za-z0-9_]*)(?: for [^\n]*)?\] Result:/;

/** Where a result ends: the next result, or a block the engine appends to every turn. */
const END =
  /\n\n(?=\[Tool(?: \(Error\))?\]\n|\[[A-Za-z_][A-Za-z0-9_]*(?: for [^\n]*)?\] Result:|\n?# task_progress\b|<environment_details>|Loading\.\.\.$)/;

/** The tools whose "result" is the user's own reply (recorded as user_feedback), not a tool's output. */
const ANSWER_TOOLS = new Set(['attempt_completion', 'plan_mode_respond', 'act_mode_respond', 'ask_followup_question']);

/** The tool results at the start of a request text, in order; none when it does not start with one. */
export function requestResults(request: string): RequestResult[] {
  const results: RequestResult[] = [];
  let rest = request;
  for (;;) {
    const wrapper = /^\[Tool( \(Error\))?\]\n/.exec(rest);
    const body = wrapper ? rest.slice(wrapper[0].length) : rest;
    const header = HEADER.exec(body);
    if (!header) break;
    const end = END.exec(body.slice(header[0].length));
    const text = end === null ? body : body.slice(0, header[0].length + end.index);
    if (!ANSWER_TOOLS.has(header[1])) results.push({ tool: header[1], text, isError: wrapper?.[1] !== undefined });
    if (end === null) break;
    rest = body.slice(header[0].length + end.index + 2);
  }
  return results;
}
