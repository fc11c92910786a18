/**
 * One post in the editor: its front matter as form fields, its markdown, a live preview drawn by the blog's own
 * code (the server renders the article as /blog/<slug> would), autosave while it is a draft, publish now, schedule,
 * unpublish, a preview link, and its versions (compare, restore). A save names the version it started from: when
 * someone saved in between, the newer version is shown instead of written over. Unsaved text is kept on the device
 * until it is saved (keptDraft.tsx); a refused field is marked beside itself and takes focus (fieldErrors.ts).
 */
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { EditablePost, PostFields, PostStatus } from '@aitools/contracts/posts';
import type { Revision as SavedRevision } from '@aitools/contracts/editing';
import { POST_FORM } from '@aitools/contracts/formFields';
import { api, ApiError, errorText } from '../api';
import { Field } from '../components/Field';
import { Done, ErrorNote, Loading } from '../components/Status';
import { labelOf, refusalText, useFieldErrors } from '../fieldErrors';
import { utc } from '../format';
import { KeptDraftOffer, useKeptDraft } from '../keptDraft';
import { useResource } from '../useResource';
import { PostVersions } from './PostVersions';

/** How long after the last keystroke a draft saves itself, and its preview is drawn again. */
export const AUTOSAVE_MS = 2000;
const PREVIEW_MS = 400;

type Action = 'save' | 'publish' | 'schedule' | 'unpublish';

const REFUSED: Record<Action | 'create', string> = {
  create: 'Not created',
  save: 'Not saved',
  publish: 'Not published',
  schedule: 'Not scheduled',
  unpublish: 'Not unpublished',
};

/** What is kept of unsaved work (keptDraft.tsx): the fields, and the address of a post not yet created. */
interface KeptPost {
  fields: PostFields;
  slug: string;
}

/** A saved version of the post, as a refused save names the newer one. */
type Revision = SavedRevision<Partial<PostFields>>;

const EMPTY: PostFields = {
  title: '',
  excerpt: '',
  category: '',
  tags: [],
  author: '',
  featured: false,
  read_time: '',
  featured_image: '',
  featured_image_alt: '',
  content: '',
};

const fieldsOf = (post: EditablePost): PostFields => {
  const { slug: _s, status: _st, published_at: _p, updated_at: _u, version: _v, ...fields } = post;
  return fields;
};

/** The tags in the text of their field: names separated by commas, empty ones dropped. */
const tagsOf = (typed: string): string[] =>
  typed
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

const STATUS_TEXT: Record<PostStatus, (post: EditablePost) => string> = {
  draft: () => 'Draft: only editors and holders of a preview link see it.',
  scheduled: (p) => `Scheduled: goes out on its own at ${utc(p.published_at)}.`,
  published: (p) => `Published ${utc(p.published_at)}.`,
};

const DONE: Record<Action, (post: EditablePost) => string> = {
  save: (p) => `Saved as version ${p.version}.`,
  publish: (p) => `Published as version ${p.version}: on /blog now.`,
  schedule: (p) => `Scheduled for ${utc(p.published_at)} (version ${p.version}).`,
  unpublish: (p) => `Unpublished: a draft again (version ${p.version}).`,
};

/** A `datetime-local` value read as UTC (the console states every time in UTC). */
const utcIso = (local: string) => (local ? new Date(`${local}:00Z`).toISOString() : '');

/**
 * The article's headings moved under the preview's own heading (an h2): its h1 becomes an h3, and so on, so the page
 * keeps a single h1 and an outline that reads in order. Only the tags' names change (the markup is the server's
 * render, where a "<" in text or an attribute is always escaped), so the rest stays the published article's HTML.
 */
export function nestHeadings(html: string, under = 2): string {
  return html.replace(/<(\/?)h([1-6])(?=[\s>])/gi, (_, close: string, level: string) => {
    return `<${close}h${Math.min(6, Number(level) + under)}`;
  });
}

const latestOf = (body: unknown): Revision | null =>
  body && typeof body === 'object' && (body as { latest?: Revision }).latest
    ? (body as { latest: Revision }).latest
    : null;

export function PostEditorScreen() {
  const { slug } = useParams();
  const [loads, setLoads] = useState(0);
  const post = useResource<{ post: EditablePost }>(slug ? `/api/posts/${slug}` : null);
  const reload = async () => {
    await post.reload();
    setLoads((n) => n + 1);
  };
  if (!slug) return <Editor initial={null} onReload={reload} />;
  if (post.error) return <ErrorNote>{post.error}</ErrorNote>;
  if (!post.data || post.loading) return <Loading what="the post" />;
  return <Editor key={`${slug}-${loads}`} initial={post.data.post} onReload={reload} />;
}

function Editor({ initial, onReload }: { initial: EditablePost | null; onReload: () => Promise<void> }) {
  const navigate = useNavigate();
  const [post, setPost] = useState(initial);
  const [fields, setFields] = useState<PostFields>(initial ? fieldsOf(initial) : EMPTY);
  // The Tags field's text as typed (a trailing comma or space stays while typing); `fields.tags` is what it means.
  const [tagsText, setTagsText] = useState(() => fields.tags.join(', '));
  const [slug, setSlug] = useState(initial?.slug ?? '');
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Revision | null>(null);
  const [at, setAt] = useState('');
  const [link, setLink] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ html?: string; error?: string }>({});
  const [history, setHistory] = useState(0);
  const [refused, setRefused] = useState<Action | 'create'>('save');
  const { errors, formRef, refuseFailure, clear, marks, reset } = useFieldErrors(POST_FORM, 'post');
  const unsaved = useKeptDraft<KeptPost>(`post:${initial?.slug ?? 'new'}`);
  const [offer, setOffer] = useState(() => unsaved.kept);

  const change = (patch: Partial<PostFields>) => {
    setFields((f) => ({ ...f, ...patch }));
    for (const name of Object.keys(patch)) clear(name);
    setDirty(true);
  };

  // Every unsaved change is kept on this device until a save succeeds (keptDraft.tsx).
  const { keep, discard } = unsaved;
  const base = post?.version ?? 0;
  useEffect(() => {
    if (dirty) keep({ fields, slug }, base);
  }, [dirty, fields, slug, base, keep]);

  const restore = () => {
    if (!offer) return;
    setFields(offer.value.fields);
    setTagsText(offer.value.fields.tags.join(', '));
    if (!post) setSlug(offer.value.slug);
    // The save names the version the kept text started from: a newer one is shown, never written over.
    else if (offer.base) setPost({ ...post, version: offer.base });
    setDirty(true);
    setOffer(null);
  };

  const act = useCallback(
    async (action: Action, auto = false) => {
      setBusy(true);
      setError(null);
      reset();
      setRefused(post ? action : 'create');
      try {
        if (!post) {
          await api.post('/api/posts', { slug, fields });
          discard();
          navigate(`/posts/${slug}`, { replace: true });
          return;
        }
        const { post: next } = await api.post<{ post: EditablePost }>(`/api/posts/${post.slug}`, {
          version: post.version,
          action,
          fields,
          ...(action === 'schedule' ? { at: utcIso(at) } : {}),
        });
        setPost(next);
        setDirty(false);
        discard();
        setHistory((h) => h + 1);
        setNote(auto ? `Draft saved automatically (version ${next.version}).` : DONE[action](next));
      } catch (err) {
        const latest = err instanceof ApiError && err.status === 409 ? latestOf(err.body) : null;
        if (latest) setConflict(latest);
        // A refusal naming fields marks them (focus on the first, unless it was an automatic save while typing).
        else if (!refuseFailure(err, !auto)) setError(errorText(err));
      } finally {
        setBusy(false);
      }
    },
    [post, slug, fields, at, navigate, discard, reset, refuseFailure],
  );

  // A draft saves itself a moment after the last change (not while a save runs or a newer version waits).
  useEffect(() => {
    if (post?.status !== 'draft' || !dirty || busy || conflict) return;
    const timer = setTimeout(() => void act('save', true), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [post?.status, dirty, busy, conflict, act]);

  // The live preview, drawn again a moment after each change; an answer overtaken by a newer change is dropped.
  const previewDate = post && post.status !== 'draft' ? post.published_at : null;
  useEffect(() => {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || !fields.title.trim()) return;
    let current = true;
    const timer = setTimeout(() => {
      api
        .post<{ html: string }>('/api/posts/preview', { slug, fields, published_at: previewDate })
        .then((r) => current && setPreview({ html: nestHeadings(r.html) }))
        .catch((err: unknown) => current && setPreview({ error: errorText(err) }));
    }, PREVIEW_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [slug, fields, previewDate]);

  const makeLink = async () => {
    if (!post) return;
    try {
      setLink((await api.post<{ url: string }>(`/api/posts/${post.slug}/preview-link`)).url);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const text = (name: keyof PostFields, hint?: string) => (
    <Field id={`post-${name}`} label={labelOf(POST_FORM, name)} error={errors[name]} hint={hint}>
      <input
        id={`post-${name}`}
        value={fields[name] as string}
        onChange={(e) => change({ [name]: e.target.value })}
        {...marks(name, hint ? `post-${name}-hint` : undefined)}
      />
    </Field>
  );
  const refusal = refusalText(REFUSED[refused], POST_FORM, errors);

  return (
    <>
      <p>
        <Link to="/posts">← All posts</Link>
      </p>
      <h1>{post ? `Edit: ${post.title}` : 'New post'}</h1>
      {post && (
        <p>
          {STATUS_TEXT[post.status](post)} Version {post.version}
          {dirty ? ', with unsaved changes' : ''}.
        </p>
      )}
      <Done>{note}</Done>
      {offer && (
        <KeptDraftOffer
          kept={offer}
          onRestore={restore}
          onDiscard={() => {
            discard();
            setOffer(null);
          }}
        />
      )}
      {conflict && (
        <div role="alert" className="note note--error">
          <p>
            Someone saved a newer version (version {conflict.version}, by {conflict.author}, {utc(conflict.created_at)})
            after the one you started from. Your changes are not saved.
          </p>
          <details open>
            <summary>The newer version</summary>
            <p>
              <strong>{conflict.body.title}</strong>
            </p>
            <pre className="post-source">{conflict.body.content}</pre>
          </details>
          <button
            type="button"
            className="btn"
            onClick={() => {
              discard();
              void onReload();
            }}
          >
            Load the newer version
          </button>
        </div>
      )}
      <div className="editor">
        <form
          ref={formRef}
          className="card"
          aria-label="Post"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void act('save');
          }}
        >
          {text('title')}
          <Field
            id="post-slug"
            label={labelOf(POST_FORM, 'slug')}
            error={errors.slug}
            hint={`/blog/${slug || '…'}: lowercase words joined by hyphens, fixed once created.`}
          >
            <input
              id="post-slug"
              value={slug}
              readOnly={!!post}
              onChange={(e) => {
                setSlug(e.target.value);
                clear('slug');
                setDirty(true);
              }}
              {...marks('slug', 'post-slug-hint')}
            />
          </Field>
          {text('excerpt')}
          {text('category')}
          <Field id="post-tags" label={labelOf(POST_FORM, 'tags')} error={errors.tags} hint="Separated by commas.">
            <input
              id="post-tags"
              value={tagsText}
              onChange={(e) => {
                setTagsText(e.target.value);
                change({ tags: tagsOf(e.target.value) });
              }}
              {...marks('tags', 'post-tags-hint')}
            />
          </Field>
          {text('author')}
          {text('read_time', 'For example "6 min read"; empty: counted from the text.')}
          {text('featured_image', 'An address on the site or https; empty: the site draws the cover.')}
          {text('featured_image_alt')}
          <label className="check">
            <input type="checkbox" checked={fields.featured} onChange={(e) => change({ featured: e.target.checked })} />
            Featured on the blog
          </label>
          <Field id="post-content" label={labelOf(POST_FORM, 'content')} error={errors.content} wide>
            <textarea
              id="post-content"
              rows={18}
              value={fields.content}
              onChange={(e) => change({ content: e.target.value })}
              {...marks('content')}
            />
          </Field>
          {post ? (
            <>
              <button type="submit" className="btn btn--primary" disabled={busy}>
                Save
              </button>
              {post.status !== 'published' && (
                <button type="button" className="btn" disabled={busy} onClick={() => void act('publish')}>
                  Publish now
                </button>
              )}
              {post.status !== 'draft' && (
                <button type="button" className="btn" disabled={busy} onClick={() => void act('unpublish')}>
                  Unpublish
                </button>
              )}
              <fieldset>
                <legend>Schedule</legend>
                <Field id="post-at" label={labelOf(POST_FORM, 'at')} error={errors.at}>
                  <input
                    id="post-at"
                    type="datetime-local"
                    value={at}
                    onChange={(e) => {
                      setAt(e.target.value);
                      clear('at');
                    }}
                    {...marks('at')}
                  />
                </Field>
                <button type="button" className="btn" disabled={busy || !at} onClick={() => void act('schedule')}>
                  Schedule
                </button>
              </fieldset>
              <button type="button" className="btn" onClick={() => void makeLink()}>
                Make a preview link
              </button>
              {link && (
                <div className="field field--wide">
                  <label htmlFor="post-link">Preview link (24 hours)</label>
                  <input id="post-link" readOnly value={link} onFocus={(e) => e.target.select()} />
                </div>
              )}
            </>
          ) : (
            <button type="submit" className="btn btn--primary" disabled={busy}>
              Create draft
            </button>
          )}
          {/* Beside the buttons that were pressed: what was refused, the reasons being beside their fields. */}
          <ErrorNote>{refusal ?? errors.form ?? error}</ErrorNote>
        </form>
        <section className="card" aria-labelledby="preview-heading">
          <h2 id="preview-heading">Live preview</h2>
          <ErrorNote>{preview.error}</ErrorNote>
          {preview.html === undefined ? (
            <p className="muted">The preview shows once the post has a title and an address.</p>
          ) : (
            // The blog's own rendering of the article (the server's, as on /blog/<slug>); the console's CSP runs no
            // script it could hold.
            <div id="live-preview" className="post-preview" dangerouslySetInnerHTML={{ __html: preview.html }} />
          )}
        </section>
      </div>
      {post && <PostVersions slug={post.slug} current={post.version} refresh={history} onRestored={onReload} />}
    </>
  );
}
