/**
 * What a person reads of an AgentMessage: its text content (text blocks, tool calls, tool results, summaries),
 * with non-text blocks named. Pure and shared: the app's TurnView and Compare view, the HTML report and
 * `contextscope compare --turn` all show `messagePreview` collapsed and `messageText` in full.
 */

type LooseMessage = { role: string; [key: string]: unknown };

function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  if (!block || typeof block !== 'object') return '';
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : '';
    case 'thinking':
      return b.redacted === true
        ? '[thinking: redacted]'
        : `[thinking] ${typeof b.thinking === 'string' ? b.thinking : ''}`;
    case 'toolCall': {
      const args = b.arguments === undefined ? '' : JSON.stringify(b.arguments);
      return `→ ${String(b.name ?? 'tool')}(${args})`;
    }
    case 'image':
      return `[image ${typeof b.mimeType === 'string' ? b.mimeType : ''}]`.replace(' ]', ']');
    default:
      return `[${String(b.type ?? 'block')}]`;
  }
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map(blockText)
      .filter((t) => t !== '')
      .join('\n');
  return '';
}

/** The full readable text of a message. */
export function messageText(message: LooseMessage): string {
  switch (message.role) {
    case 'compactionSummary':
    case 'branchSummary':
      return typeof message.summary === 'string' ? message.summary : '';
    case 'toolResult': {
      const name = typeof message.toolName === 'string' ? `${message.toolName}: ` : '';
      return `${message.isError === true ? '[error] ' : ''}${name}${contentText(message.content)}`;
    }
    case 'bashExecution':
      return `$ ${String(message.command ?? '')}\n${String(message.output ?? '')}`;
    default: {
      const text = contentText(message.content);
      if (text !== '' || 'content' in message) return text;
      return JSON.stringify(message);
    }
  }
}

/** One line: whitespace collapsed, cut at `maxChars` with an ellipsis. */
export function messagePreview(text: string, maxChars = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
