import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderRoute } from '@aitools/platform/testing';
import type { Tool } from '@aitools/contracts/tools';
import ToolDetailRoute from './ToolDetail';
import type { ToolLookup } from '../features/tools/api/loadTools';

const TOOL: Tool = {
  id: 7,
  name: 'Cursor',
  slug: 'cursor',
  description: 'AI code editor.',
  fullDescription: 'First paragraph.\n\nSecond paragraph.\n\n\nThird paragraph.',
  category: 'Development',
  tags: '{one, two, three, four, five, six, seven, eight, nine, ten}',
  website: 'https://cursor.com',
  pricing: 'Freemium, Paid',
  detailedPricing: [
    {
      id: 2,
      name: 'Business',
      details: 'Business: $40/user/month billed annually - SSO, admin; privacy mode',
      order: 2,
    },
    { id: 1, name: 'Hobby', details: 'Hobby: $0 - limited agent requests', order: 1 },
    { id: 3, name: 'Free', details: 'Free: $0 - basics', order: 3 },
  ],
  keyFeatures: ['Tab completion', { title: 'Agent', description: 'Edits across files.' }],
  lastUpdated: '2026-11-14',
  screenshot: '/screenshots/cursor.png',
  faqs: [
    { question: 'Q1?', answer: 'A1.' },
    { question: 'Q2?', answer: 'A2.' },
  ],
};

function renderDetail(url: string, data?: ToolLookup) {
  return renderRoute(ToolDetailRoute, {
    path: '/tool/:slug',
    url,
    data,
    routes: [{ path: '/', element: <p>home page</p> }],
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ToolDetail found', () => {
  it('renders breadcrumb, badges, paragraphs, last updated, features and Explore More', () => {
    vi.stubGlobal('scrollTo', vi.fn());
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    expect(screen.getByRole('heading', { level: 1, name: 'Cursor' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Development' }).getAttribute('href')).toBe(
      '/?category=Development',
    );
    expect(screen.getByText('AI Tool')).toBeTruthy();
    expect(screen.getByText('Freemium')).toBeTruthy();
    expect(screen.getByText('Last updated: November 14, 2026')).toBeTruthy();
    for (const p of ['First paragraph.', 'Second paragraph.', 'Third paragraph.'])
      expect(screen.getByText(p)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Key Features and Benefits' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Visit Website/ }).getAttribute('target')).toBe('_blank');
    const explore = screen.getByRole('heading', { name: 'Explore More' }).parentElement!;
    expect(
      within(explore)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/?category=Development', '/?type=free', '/', '/blog', '/#faq', '/submit']);
  });

  it('shows 8 tags and the rest behind a native disclosure (it works without script)', () => {
    const { container } = renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem')).toHaveLength(8);
    const more = container.querySelector<HTMLDetailsElement>('details.dir-taglist__more')!;
    expect(more.open).toBe(false);
    expect(more.querySelector('summary')!.textContent).toBe('Show 2 more tags' + 'Show less');
    expect(within(more).getAllByRole('listitem', { hidden: true })).toHaveLength(2);
  });

  it('has no tag toggle with 8 tags or fewer', () => {
    const { container } = renderDetail('/tool/cursor', { slug: 'cursor', tool: { ...TOOL, tags: ['a', 'b'] } });
    expect(container.querySelector('details.dir-taglist__more')).toBeNull();
  });

  it('sorts pricing plans by weight and shows parsed details with a short form of long prices', () => {
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    const section = screen.getByRole('heading', { name: 'Pricing Plans' }).parentElement!;
    expect(
      within(section)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Hobby', 'Free', 'Business']);
    expect(within(section).getByText('$40/user/month billed annually')).toBeTruthy();
    expect(within(section).getByText('$40/user/mo billed annually')).toBeTruthy();
    expect(within(section).getByText('privacy mode')).toBeTruthy();
  });

  it('FAQ accordion: native disclosures in one group, so the browser keeps one answer open', () => {
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    const section = screen.getByRole('region', { name: 'Frequently Asked Questions' });
    const entries = [...section.querySelectorAll('details')];
    expect(entries.map((d) => d.querySelector('summary')!.textContent)).toEqual(TOOL.faqs!.map((f) => f.question));
    expect(new Set(entries.map((d) => d.getAttribute('name')))).toEqual(new Set(['dir-tool-faq']));
    expect(entries.every((d) => !d.open)).toBe(true);
  });

  it('hides the screenshot when it fails', () => {
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    const img = screen.getByAltText('Cursor screenshot');
    fireEvent.error(img);
    expect(screen.queryByAltText('Cursor screenshot')).toBeNull();
  });

  it('sets head with SoftwareApplication data and rating defaults, and records the view', async () => {
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    await waitFor(() => expect(document.title).toBe('Cursor - Development | AI Tools Directory'));
    expect(document.head.querySelector('link[rel="canonical"]')!.getAttribute('href')).toBe(
      'https://localhost/tool/cursor',
    );
    expect(document.head.querySelector('meta[name="robots"]')!.getAttribute('content')).toBe('index,follow');
    const ld = JSON.parse(document.head.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(ld['@type']).toBe('SoftwareApplication');
    expect(ld.aggregateRating).toMatchObject({ ratingValue: 4.5, ratingCount: 250 });
    const [entry] = JSON.parse(localStorage.getItem('toolInteractions')!);
    expect(entry).toMatchObject({ toolName: 'Cursor', action: 'view', category: 'Development' });
  });

  it('Share copies the link and alerts when there is no device share, and records the share', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    const share = screen.getByRole('link', { name: 'Share' });
    // Read on the document, after React's handler (delegated to the root) has run.
    let followed = true;
    const seen = (e: Event) => (followed = !e.defaultPrevented);
    document.addEventListener('click', seen);
    await act(async () => fireEvent.click(share));
    document.removeEventListener('click', seen);
    expect(writeText).toHaveBeenCalledWith(window.location.href);
    expect(alert).toHaveBeenCalledWith('Link copied to clipboard!');
    expect(followed).toBe(false);
    const actions = JSON.parse(localStorage.getItem('toolInteractions')!).map((e: { action: string }) => e.action);
    expect(actions).toContain('share');
    alert.mockRestore();
  });

  it('Share is a link to an email with the tool and its canonical address, for a browser without script', () => {
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    const href = screen.getByRole('link', { name: 'Share' }).getAttribute('href')!;
    expect(href.startsWith('mailto:?')).toBe(true);
    const email = new URLSearchParams(href.slice('mailto:?'.length));
    expect(email.get('subject')).toBe('Cursor');
    expect(email.get('body')).toBe('AI code editor.\n\nhttps://localhost/tool/cursor');
  });

  it('Back to Directory is a link to / (it works without script) and goes there when there is no history', () => {
    renderDetail('/tool/cursor', { slug: 'cursor', tool: TOOL });
    const back = screen.getByRole('link', { name: '← Back to Directory' });
    expect(back.getAttribute('href')).toBe('/');
    fireEvent.click(back);
    expect(screen.getByText('home page')).toBeTruthy();
  });
});

describe('ToolDetail loading and not found', () => {
  it('has the "Loading AI Tool" screen for navigations, and renders the tool its loader fetched', async () => {
    const Pending = ToolDetailRoute.Pending!;
    render(<Pending params={{}} />);
    expect(screen.getByText('Loading AI Tool')).toBeTruthy();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(TOOL), { status: 200 })),
    );
    renderDetail('/tool/cursor');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cursor' })).toBeTruthy();
  });

  it('its loader answers 404 for an unknown tool', async () => {
    const api = { fetchJson: vi.fn(async () => ({ ok: false, status: 404, body: null })) };
    const result = (await ToolDetailRoute.loader!({
      params: { slug: 'nope' },
      request: new Request('https://x/tool/nope'),
      context: { api },
    } as never)) as { data: ToolLookup; init: ResponseInit };
    expect(result.init.status).toBe(404);
    expect(result.data).toEqual({ slug: 'nope', tool: null });
    expect(api.fetchJson).toHaveBeenCalledWith('/api/tools/nope');
  });

  it('its loader answers 410 for a hidden tool, without the built-in list (which knows that slug)', async () => {
    const api = { fetchJson: vi.fn(async () => ({ ok: false, status: 410, body: null })) };
    const result = (await ToolDetailRoute.loader!({
      params: { slug: 'cursor' },
      request: new Request('https://x/tool/cursor'),
      context: { api },
    } as never)) as { data: ToolLookup; init: ResponseInit };
    expect(result.init.status).toBe(410);
    expect(result.data).toEqual({ slug: 'cursor', tool: null, gone: true });
  });

  it('shows not found with the slug, noindex and Browse All AI Tools', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ success: false }), { status: 404 })),
    );
    renderDetail('/tool/no-such-tool');
    expect(await screen.findByRole('heading', { name: 'AI Tool Not Found' })).toBeTruthy();
    expect(
      screen.getByText(
        'The AI tool "no-such-tool" could not be found. It may have been moved, deleted, or the URL might be incorrect.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse All AI Tools' }).getAttribute('href')).toBe('/');
    await waitFor(() =>
      expect(document.head.querySelector('meta[name="robots"]')!.getAttribute('content')).toBe('noindex,nofollow'),
    );
  });

  it('renders server data for not found without fetching', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderDetail('/tool/gone', { slug: 'gone', tool: null });
    expect(screen.getByRole('heading', { name: 'AI Tool Not Found' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('searches the built-in list by slug when the call fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    renderDetail('/tool/midjourney');
    expect(await screen.findByRole('heading', { level: 1, name: 'Midjourney' })).toBeTruthy();
    log.mockRestore();
  });
});
