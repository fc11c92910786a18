import type { Tool } from '@aitools/contracts/tools';

/** The 5 built-in tools shown when the list call fails or answers an invalid shape (docs/product.md, Directory),
 *  also searched by slug when a detail call fails. */
export const FALLBACK_TOOLS: Tool[] = [
  {
    id: 1,
    name: 'ChatGPT',
    slug: 'chatgpt',
    description: "OpenAI's conversational AI assistant for writing, analysis, coding, image generation and web search.",
    fullDescription:
      'ChatGPT is a general-purpose AI assistant developed by OpenAI. It answers questions, drafts and edits text, writes and explains code, and analyzes uploaded files.\n\nA free tier gives access to the default model with usage limits; paid plans raise limits and unlock more advanced models.',
    category: 'AI Assistants',
    tags: ['chatbot', 'writing', 'coding', 'openai'],
    website: 'https://chatgpt.com',
    pricing: 'Freemium',
    detailedPricing: {
      free: '$0 - default model, limited messages',
      plus: '$20/month - higher limits, advanced reasoning models',
    },
    keyFeatures: ['Conversational chat', 'Web search with sources', 'Image generation', 'Custom GPTs'],
    popularityScore: 9.8,
    lastUpdated: '2026-10-01',
    faqs: [
      {
        question: 'Is ChatGPT free?',
        answer: 'Yes, there is a free tier with usage limits; Plus and Pro add higher limits.',
      },
    ],
  },
  {
    id: 2,
    name: 'Claude',
    slug: 'claude',
    description:
      "Anthropic's AI assistant for writing, analysis, coding and long documents, on web, desktop and mobile.",
    fullDescription:
      'Claude is an AI assistant built by Anthropic. It handles long documents, writing, research and coding, and can work with files, projects and connected tools through the Model Context Protocol.\n\nA free plan is available; Pro, Max, Team and Enterprise plans add usage and features.',
    category: 'AI Assistants',
    tags: ['chatbot', 'writing', 'coding', 'anthropic'],
    website: 'https://claude.ai',
    pricing: 'Freemium',
    detailedPricing: {
      free: '$0 - chat on web, desktop and mobile',
      pro: '$20/month - more usage, Projects and Claude Code',
    },
    keyFeatures: ['Long context', 'Projects', 'Artifacts', 'MCP connectors'],
    popularityScore: 9.5,
    lastUpdated: '2026-10-01',
    faqs: [
      {
        question: 'Does Claude support MCP?',
        answer: 'Yes, Claude apps can connect to MCP servers for tools and data.',
      },
    ],
  },
  {
    id: 3,
    name: 'Cursor',
    slug: 'cursor',
    description:
      'AI code editor built on VS Code with codebase-aware chat, multi-line autocomplete and an agent that edits across files.',
    fullDescription:
      'Cursor is an AI-first code editor forked from VS Code. It indexes your codebase so chat and the agent can answer questions and make multi-file edits.\n\nA free Hobby plan is available; Pro and Business plans add usage and admin features.',
    category: 'Development',
    tags: ['code editor', 'autocomplete', 'agent', 'vs code'],
    website: 'https://cursor.com',
    pricing: 'Freemium',
    detailedPricing: {
      hobby: '$0 - limited agent requests and completions',
      pro: '$20/month - extended agent limits, unlimited tab completions',
    },
    keyFeatures: ['Tab autocomplete', 'Agent mode', 'Codebase chat', 'VS Code extensions'],
    popularityScore: 9.4,
    lastUpdated: '2026-10-01',
    faqs: [
      {
        question: 'Can I use my VS Code extensions?',
        answer: 'Yes, Cursor is built on VS Code and imports extensions, themes and keybindings.',
      },
    ],
  },
  {
    id: 4,
    name: 'Midjourney',
    slug: 'midjourney',
    description:
      'AI image generator known for artistic, high-quality images from text prompts, used on the web and in Discord.',
    fullDescription:
      'Midjourney is an independent research lab whose image model turns text prompts into detailed, stylised images.\n\nIt is used through its web app and Discord, with paid subscription plans.',
    category: 'Image Generation',
    tags: ['image generation', 'art', 'text-to-image'],
    website: 'https://www.midjourney.com',
    pricing: 'Paid',
    detailedPricing: {
      basic: '$10/month - limited fast GPU time',
      standard: '$30/month - more fast GPU time, unlimited relaxed',
    },
    keyFeatures: ['Text-to-image', 'Image editing', 'Style references', 'Upscaling'],
    popularityScore: 9.0,
    lastUpdated: '2026-10-01',
    faqs: [
      {
        question: 'Is there a free trial?',
        answer: 'Midjourney is subscription-only; check its site for any current trial offers.',
      },
    ],
  },
  {
    id: 5,
    name: 'Filesystem MCP Server',
    slug: 'filesystem-mcp-server',
    description:
      'Reference MCP server that lets a client read, write, edit, move and search files inside directories you allow.',
    fullDescription:
      'The Filesystem server is one of the reference servers of the Model Context Protocol project.\n\nIt exposes file operations as MCP tools, restricted to the directories you pass at launch.',
    category: 'MCP Servers',
    tags: ['mcp', 'mcp-server', 'filesystem'],
    website: 'https://github.com/modelcontextprotocol/servers/tree/main/src/filesystem',
    pricing: 'Free',
    detailedPricing: [
      { id: 1, name: 'Open Source', details: 'Open Source: $0 - self-hosted; runs locally over stdio', order: 1 },
    ],
    keyFeatures: ['Read and write files', 'Edit with diff preview', 'Search files', 'Allowed-directory sandbox'],
    popularityScore: 9.6,
    lastUpdated: '2026-10-01',
    mcpBadge: 'Official',
    faqs: [
      {
        question: 'Which folders can it access?',
        answer: 'Only the directories passed as arguments or provided through MCP Roots.',
      },
    ],
  },
];
