import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, doc, ent, esc } from './html.ts';
import { attribute, template, text, type SiteBuild } from './site.ts';

// A phpBB thread page. v2 is the forum's move to a new theme: posts are <li> items of an <ol> with new ids
// (p70001 becomes post-3), a row/avatar/body wrapper, the post number moved under the body, new class names,
// and a sponsored "post" from a shop between posts 5 and 6.

const PAGE_URL = 'https://forum.example.test/viewtopic.php?t=4821&start=15';

interface Post {
  id: number;
  no: number;
  user: string;
  uid: number;
  rank: string | null;
  posts: number;
  joined: string;
  datetime: string;
  shown: string;
  /** Paragraphs; a line may hold a quote as [quotedUser, quotedText]. */
  body: (string | [string, string])[];
  signature: string | null;
  likes: number | null;
}

const USERS: [string, number, string | null, string | null][] = [
  ['beanbag', 311, 'Moderator', 'Rocket Appartamento · Niche Zero · too many beans'],
  ['crema_queen', 1204, null, null],
  ['Marco P.', 877, 'Barista', '\u201cCoffee is a language in itself.\u201d'],
  ['dialed_in', 2051, null, null],
  ['oldgrinder', 96, 'Veteran', null],
  ['Ana_L', 3120, null, 'Brewing in Lisbon'],
];

const TEXTS: (string | [string, string])[][] = [
  ['For espresso under $500 I\u2019d look at the DF64 Gen 2 or the Niche Zero if you can find one used.', 'Both are single-dose friendly.'],
  [['beanbag', 'Both are single-dose friendly.'], 'Agreed, but the DF64 needs a bellows to really be single-dose. Retention is ~0.2 g with it.'],
  ['I went from a Sette 270 to a Niche and the difference in the cup was noticeable.', 'Less fines, more clarity & sweetness with light roasts.'],
  ['Has anyone tried the Timemore Sculptor 064S? It\u2019s $479 here.'],
  [['dialed_in', 'Has anyone tried the Timemore Sculptor 064S?'], 'Yes \u2014 great for filter, a bit fiddly for espresso. The stepless adjustment takes some getting used to.'],
  ['Budget matters: is the $500 for the grinder alone, or grinder + scale?'],
  ['Grinder alone. I already have a scale and a Gaggia Classic Pro.'],
  ['Then DF64 Gen 2 all day. Put the rest into fresh beans.', 'Seriously, stale beans will ruin any grinder.'],
  ['Niche Zero prices went up again in the EU, \u20ac\u00a0629 last I checked.'],
  [['crema_queen', 'Less fines, more clarity & sweetness with light roasts.'], 'Interesting, I found the opposite with medium roasts. Might be my burr alignment.'],
  ['Alignment is a rabbit hole. Start with the marker test before buying anything.'],
  ['Ordered the DF64 Gen 2. Thanks everyone!', 'Will report back after a week of dialling in.'],
  ['Good choice. Season the burrs with 1\u20132 kg of cheap beans first.'],
  ['Update: 18 g in, 36 g out in 28 s at setting 12. Tastes great.'],
  ['Marking this as solved. Thanks all for the help!'],
];

function posts(): Post[] {
  return TEXTS.map((body, i) => {
    const [user, uid, rank, signature] = USERS[(i * 7 + (i > 10 ? 3 : 0)) % USERS.length];
    const minute = 10 + i * 37;
    const hour = 9 + Math.floor(minute / 60);
    const m = String(minute % 60).padStart(2, '0');
    const h12 = hour > 12 ? hour - 12 : hour;
    return {
      id: 70001 + i * 3,
      no: 16 + i,
      user,
      uid,
      rank,
      posts: 40 + ((uid * 13) % 4000),
      joined: ['Mar 2016', 'Jan 2021', 'Aug 2018', 'Nov 2022', 'Feb 2009', 'May 2023'][uid % 6],
      datetime: `2024-11-03T${String(hour).padStart(2, '0')}:${m}:00+00:00`,
      shown: `Sun Nov 03, 2024 ${h12}:${m} ${hour >= 12 ? 'pm' : 'am'}`,
      body,
      signature,
      likes: i % 3 === 1 ? null : 1 + ((i * 5) % 9),
    };
  });
}

const bodyText = (p: Post) => p.body.map((b) => (typeof b === 'string' ? b : `${b[0]} wrote: ${b[1]}`)).join(' ').replace(/\s+/g, ' ');

function expected(p: Post): ExtractedRecord {
  const title = 'Re: Which espresso grinder under $500?';
  return {
    author: p.user,
    author_url: `https://forum.example.test/memberlist.php?mode=viewprofile&u=${p.uid}`,
    rank: p.rank,
    posted: p.datetime,
    post_no: `#${p.no}`,
    title,
    body: bodyText(p),
    signature: p.signature,
    likes: p.likes === null ? null : `${p.likes}`,
    permalink: `https://forum.example.test/viewtopic.php?p=${p.id}`,
    citation: `${p.user}, post #${p.no}`,
  };
}

/** phpBB's body: lines joined by <br>, quotes as blockquote with a cite. */
function bodyV1(p: Post): string {
  return p.body
    .map((b) =>
      typeof b === 'string'
        ? ent(b)
        : `<blockquote><div><cite><a href="./memberlist.php?mode=viewprofile&amp;u=${USERS.find((u) => u[0] === b[0])![1]}">${esc(b[0])}</a> wrote: <a href="./viewtopic.php?p=${p.id - 3}#p${p.id - 3}" data-post-id="${p.id - 3}" onclick="if(document.getElementById(hash.substr(1)))href=hash"><i class="icon fa-arrow-circle-up fa-fw" aria-hidden="true"></i></a></cite>\n${ent(b[1])}</div></blockquote>`,
    )
    .join('<br>\n');
}

/** The new theme: paragraphs and aside quotes. */
function bodyV2(p: Post): string {
  return p.body
    .map((b) =>
      typeof b === 'string'
        ? `<p>${esc(b)}</p>`
        : `<aside class="quote no-group" data-username="${attr(b[0])}"><div class="title"><img alt="" width="24" height="24" src="/avatar/${encodeURIComponent(b[0])}/48.png" class="avatar"> ${esc(b[0])} wrote:</div><blockquote><p>${esc(b[1])}</p></blockquote></aside>`,
    )
    .join('\n');
}

function postV1(p: Post, i: number): string {
  return `<div id="p${p.id}" class="post has-profile ${i % 2 ? 'bg1' : 'bg2'}">
  <div class="inner">
    <dl class="postprofile" id="profile${p.id}">
      <dt class="has-profile-rank has-avatar">
        <div class="avatar-container"><a href="./memberlist.php?mode=viewprofile&amp;u=${p.uid}" class="avatar"><img class="avatar" src="./download/file.php?avatar=${p.uid}_1690000000.png" width="90" height="90" alt="User avatar"></a></div>
        <a href="./memberlist.php?mode=viewprofile&amp;u=${p.uid}" class="${p.rank === 'Moderator' ? 'username-coloured" style="color: #00AA00;' : 'username'}">${esc(p.user)}</a>
      </dt>${p.rank ? `\n      <dd class="profile-rank">${esc(p.rank)}</dd>` : ''}
      <dd class="profile-posts"><strong>Posts:</strong> <a href="./search.php?author_id=${p.uid}&amp;sr=posts">${p.posts.toLocaleString('en-US')}</a></dd>
      <dd class="profile-joined"><strong>Joined:</strong> ${p.joined}</dd>
    </dl>
    <div class="postbody">
      <div id="post_content${p.id}">
        <h3${i === 0 ? ' class="first"' : ''}><a href="#p${p.id}">Re: Which espresso grinder under $500?</a></h3>
        <ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p=${p.id}" title="Reply with quote" class="button button-icon-only"><i class="icon fa-quote-left fa-fw" aria-hidden="true"></i><span class="sr-only">Quote</span></a></li></ul>
        <p class="author">
          <a class="unread" href="./viewtopic.php?p=${p.id}" title="Post">#${p.no}</a>
          <span class="responsive-hide">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=${p.uid}" class="username">${esc(p.user)}</a></strong> &raquo; </span><time datetime="${p.datetime}">${p.shown}</time>
        </p>
        <div class="content">${bodyV1(p)}</div>${
          p.likes !== null ? `\n        <div class="reactions"><span class="reaction-count" title="Likes">${p.likes}</span> <span class="reaction-label">likes</span></div>` : ''}${
          p.signature ? `\n        <div id="sig${p.id}" class="signature">${ent(p.signature)}</div>` : ''}
      </div>
    </div>
    <div class="back2top"><a href="#top" class="top" title="Top"><i class="icon fa-chevron-circle-up fa-fw icon-gray" aria-hidden="true"></i><span class="sr-only">Top</span></a></div>
  </div>
</div>
<hr class="divider">`;
}

function postV2(p: Post): string {
  return `<li class="topic-post" id="post-${p.no}" data-post-id="${p.id}">
<div class="row">
<div class="topic-avatar"><a href="memberlist.php?mode=viewprofile&amp;u=${p.uid}" data-user-card="${attr(p.user)}"><img alt="" width="48" height="48" src="/avatar/${p.uid}/96.png" class="avatar"></a></div>
<div class="topic-body clearfix">
<div class="topic-meta-data"><div class="names trigger-user-card"><span class="first username"><a href="memberlist.php?mode=viewprofile&amp;u=${p.uid}" data-user-card="${attr(p.user)}">${esc(p.user)}</a></span>${
  p.rank ? `<span class="user-title">${esc(p.rank)}</span>` : ''}</div>
<div class="post-infos"><div class="post-info post-date"><a class="post-date" href="viewtopic.php?p=${p.id}"><span class="relative-date" data-time="${Date.parse(p.datetime)}"><time datetime="${p.datetime}">Nov 3</time></span></a></div></div></div>
<div class="regular contents"><h2 class="post-title visually-hidden">Re: Which espresso grinder under $500?</h2><div class="cooked">
${bodyV2(p)}
</div>${p.signature ? `\n<div class="user-signature">${esc(p.signature)}</div>` : ''}
<section class="post-menu-area clearfix"><nav class="post-controls"><div class="actions">${
  p.likes !== null ? `<button class="btn-flat like-count" title="${p.likes} people liked this post">${p.likes}</button>` : ''}<button class="btn-flat toggle-like" aria-label="Like this post"><svg class="fa d-icon d-icon-heart svg-icon" aria-hidden="true"><use href="#heart"></use></svg></button><button class="btn-flat share" title="Share">Share</button></div></nav><span class="post-number">#${p.no}</span></section>
</div></div></div>
</li>`;
}

const SPONSORED = `<li class="topic-post topic-post--sponsored" id="ad-1">
<div class="row">
<div class="topic-avatar"><a href="https://ads.example.test/c/brewsupply"><img alt="" width="48" height="48" src="/ads/brewsupply.png" class="avatar"></a></div>
<div class="topic-body clearfix">
<div class="topic-meta-data"><div class="names"><span class="first">Brew Supply Co.</span><span class="sponsored-label">Sponsored</span></div></div>
<div class="regular contents"><div class="cooked"><p>Looking for a grinder? The DF64 Gen 2 is in stock now with free shipping.</p></div>
<section class="post-menu-area clearfix"><nav class="post-controls"><a class="btn" href="https://ads.example.test/c/brewsupply">Shop now</a></nav></section>
</div></div></div>
</li>`;

function v1(list: Post[]): string {
  return doc({
    title: 'Which espresso grinder under $500? - Page 2 - Home Barista Forum',
    bodyAttrs: 'id="phpbb" class="nojs notouch section-viewtopic ltr"',
    body: `<div id="wrap" class="wrap">
<a id="top" class="top-anchor" accesskey="t"></a>
<div id="page-header">
  <div class="headerbar" role="banner"><div class="inner"><div id="site-description"><a id="logo" class="logo" href="./index.php" title="Board index"><span class="site_logo"></span></a><h1>Home Barista Forum</h1><p>Espresso, grinders, roasting</p></div>
  <div id="search-box" class="search-box search-header" role="search"><form action="./search.php" method="get" id="search"><fieldset><input name="keywords" id="keywords" type="search" maxlength="128" title="Search for keywords" class="inputbox search tiny" size="20" placeholder="Search\u2026"><button class="button button-search" type="submit" title="Search">Search</button></fieldset></form></div></div></div>
  <div class="navbar" role="navigation"><div class="inner"><ul id="nav-main" class="nav-main linklist" role="menubar"><li><a href="/faq.php" rel="help" title="Frequently Asked Questions" role="menuitem">FAQ</a></li><li><a href="./ucp.php?mode=register" role="menuitem">Register</a></li><li><a href="./ucp.php?mode=login" title="Login" accesskey="x" role="menuitem">Login</a></li></ul>
  <ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar"><li class="breadcrumbs"><span class="crumb"><a href="./index.php" accesskey="h">Board index</a></span><span class="crumb"><a href="./viewforum.php?f=3">Grinders</a></span></li></ul></div></div>
</div>
<div id="page-body" class="page-body" role="main">
<h2 class="topic-title"><a href="./viewtopic.php?t=4821">Which espresso grinder under $500?</a></h2>
<div class="action-bar bar-top"><a href="./posting.php?mode=reply&amp;t=4821" class="button" title="Post a reply"><span>Post Reply</span></a><div class="pagination">30 posts <ul><li><a class="button" href="./viewtopic.php?t=4821">1</a></li><li class="active"><span>2</span></li></ul></div></div>
${list.map(postV1).join('\n')}
<div class="action-bar bar-bottom"><div class="pagination">30 posts &bull; Page <strong>2</strong> of <strong>2</strong></div></div>
<div class="jumpbox"><a href="./viewforum.php?f=3" class="left-box arrow-left" accesskey="r">Return to \u201cGrinders\u201d</a></div>
<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: No registered users and 4 guests</p></div>
</div>
<div id="page-footer" class="page-footer" role="contentinfo"><footer><div class="navbar"><ul class="linklist"><li><a href="./index.php">Board index</a></li><li><a href="./memberlist.php?mode=team">The team</a></li><li><a href="./ucp.php?mode=delete_cookies">Delete cookies</a></li><li>All times are <span title="UTC">UTC</span></li></ul></div>
<div class="copyright"><p class="footer-row">Powered by phpBB&reg; Forum Software &copy; phpBB Limited</p></div></footer></div>
</div>`,
  });
}

function v2(list: Post[]): string {
  const items: string[] = [];
  list.forEach((p, i) => {
    if (i === 5) items.push(SPONSORED);
    items.push(postV2(p));
  });
  return doc({
    title: 'Which espresso grinder under $500? \u2013 Home Barista Forum',
    bodyAttrs: 'class="crawler archetype-regular category-grinders"',
    body: `<header class="d-header"><div class="wrap"><div class="contents"><div class="title"><a href="/"><img src="/uploads/logo.png" alt="Home Barista Forum" id="site-logo"></a></div>
<nav class="header-buttons" aria-label="Account"><a class="btn btn-primary sign-up-button" href="/signup">Sign Up</a> <a class="btn login-button" href="/login">Log In</a></nav></div></div></header>
<div id="main-outlet" class="wrap" role="main">
<div id="topic-title"><h1><a href="viewtopic.php?t=4821">Which espresso grinder under $500?</a></h1><div class="topic-category"><a class="badge-category" href="/c/grinders/3">Grinders</a></div></div>
<div class="container posts"><section class="topic-area" id="topic" data-topic-id="4821">
<ol class="post-stream">
${items.join('\n')}
</ol>
</section>
<nav class="topic-navigation" aria-label="Pages"><a rel="prev" href="viewtopic.php?t=4821">\u2190 previous page</a></nav>
</div>
<div class="more-topics"><h3>Suggested topics</h3><table class="topic-list"><tbody><tr><td><a href="viewtopic.php?t=4790">Burr alignment: worth it?</a></td><td>12</td></tr><tr><td><a href="viewtopic.php?t=4702">Best scale for espresso</a></td><td>31</td></tr></tbody></table></div>
</div>
<footer class="site-footer"><nav aria-label="Footer"><a href="/faq">FAQ</a> <a href="/tos">Terms of Service</a> <a href="/privacy">Privacy</a></nav><p>Powered by open-source forum software</p></footer>`,
  });
}

type Sel = { author: string; author_url: string; rank: string; posted: string; post_no: string; title: string; body: string; signature: string; likes: string; permalink: string };
const fields = (s: Sel) => [
  text('author', s.author),
  attribute('author_url', s.author_url, 'href', 'absolute_url'),
  text('rank', s.rank),
  attribute('posted', s.posted, 'datetime'),
  text('post_no', s.post_no),
  text('title', s.title),
  text('body', s.body),
  text('signature', s.signature),
  text('likes', s.likes),
  attribute('permalink', s.permalink, 'href', 'absolute_url'),
];
const computed = [template('citation', '{author}, post {post_no}')];

export function build(): SiteBuild {
  const list = posts();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'posts',
      base_selector: '#page-body div.post',
      fields: fields({
        author: 'dl.postprofile dt > a:last-child', author_url: 'dl.postprofile dt > a:last-child', rank: 'dd.profile-rank',
        posted: 'p.author time', post_no: 'p.author a.unread', title: 'div.postbody h3', body: 'div.content',
        signature: 'div.signature', likes: '.reaction-count', permalink: 'p.author a.unread',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'posts',
      base_selector: 'ol.post-stream > li.topic-post:not(.topic-post--sponsored)',
      fields: fields({
        author: '.names .username a', author_url: '.names .username a', rank: '.user-title', posted: 'time',
        post_no: '.post-number', title: 'h2.post-title', body: 'div.cooked', signature: '.user-signature', likes: '.like-count',
        permalink: 'a.post-date',
      }),
    },
    computed_fields: computed,
  };
  return {
    id: 'forum-thread',
    meta: {
      kind: 'forum thread',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'id_renamed', 'container_tag_changed', 'extra_wrapper', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'the sponsored post keeps the post class (topic-post topic-post--sponsored), an avatar, a name and a cooked body; only likes, time and number are missing',
        'v1 has the author link twice (avatar and name, plus once more in the byline); the name is the last link of <dt>',
        'body text includes quotes of other posts ("beanbag wrote: …") and <br>-joined lines; quote cites carry a ↑ link and a username of their own',
        'ids change form (p70001 to post-16) and the post number moves from the top line to the bottom bar',
        'URLs change from ./memberlist.php to memberlist.php against a viewtopic.php?t=…&start=… page URL',
      ],
    },
    schema,
    schemaV2,
    v1: v1(list),
    v2: v2(list),
    expectedV1: list.map(expected),
    expectedV2: list.map(expected),
  };
}
