vcl 4.1;
# The shared cache in front of the site's instances (docs/operations.md, A shared cache in front). It keeps what the
# origin marks shared (CDN-Cache-Control, edge/headers.ts), keys each page on the visitor's canary side (never on the
# bucket cookie; releases/side.ts), purges by key (Surrogate-Key, with the xkey module of varnish-modules) and serves
# pages stale while the instances are down. The instances, the health probe and who may purge are the deployment's
# own: origins.vcl on the vcl_path (origins.example.vcl beside this file shows one).

import std;
import xkey;

include "origins.vcl";

sub vcl_recv {
    call origin_pick;
    if (req.restarts == 0) {
        # Ours alone to set.
        unset req.http.Release-Side;
        unset req.http.X-Edge-Bucket;
        unset req.http.X-Edge-Url;
    }
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.Surrogate-Key) {
            return (synth(400, "Surrogate-Key names the keys to purge"));
        }
        # A soft purge ends the pages' freshness but keeps them for stale-if-error.
        if (req.http.Purge-Mode == "soft") {
            set req.http.X-Purged = xkey.softpurge(req.http.Surrogate-Key);
        } else {
            set req.http.X-Purged = xkey.purge(req.http.Surrogate-Key);
        }
        return (synth(200, "Purged " + req.http.X-Purged));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        # Form posts, reports, the release API's writes: the origin's, every time.
        return (pass);
    }
    call query_keep;
    if (req.http.Authorization || req.http.Cookie ~ "(^|;\s*)preview_") {
        # A token's answer, or a previewing browser's pages: that client's alone.
        return (pass);
    }
    if (req.url ~ "^/(assets|remotes)/") {
        # Files named by their content: the same for every side.
        unset req.http.Cookie;
        return (hash);
    }
    if (!req.http.Release-Side) {
        if (req.http.Cookie ~ "(^|;\s*)release_bucket=[0-9]{1,2}(;|$)") {
            set req.http.X-Edge-Bucket = regsub(req.http.Cookie, "^(.*;\s*)?release_bucket=([0-9]{1,2})(;.*)?$", "\2");
        } elsif (req.http.Sec-Fetch-Dest == "document") {
            # A browser's first page: while a canary runs, the origin gives it its bucket.
            set req.http.X-Edge-Bucket = "new";
        } else {
            set req.http.Release-Side = "stable";
        }
        if (req.http.X-Edge-Bucket) {
            # Which side this bucket is on: asked of the origin once per bucket, kept like a page (purged with the
            # key "sides" when a canary starts, changes or ends); vcl_deliver comes back here with the answer.
            set req.http.X-Edge-Url = req.url;
            set req.url = "/__edge/side?bucket=" + req.http.X-Edge-Bucket;
            unset req.http.Cookie;
            return (hash);
        }
    }
    if (req.http.Release-Side == "new") {
        return (pass);
    }
    # The origin sees the bucket and nothing else of the visitor's cookies.
    if (req.http.X-Edge-Bucket ~ "^[0-9]+$") {
        set req.http.Cookie = "release_bucket=" + req.http.X-Edge-Bucket;
    } else {
        unset req.http.Cookie;
    }
    # Stale pages are served while they are fetched again for STALE_WHILE_REVALIDATE_SECONDS (edge/headers.ts); while
    # no instance is healthy, for as long as the page's grace (its stale-if-error).
    if (std.healthy(req.backend_hint)) {
        set req.grace = 30s;
    }
    return (hash);
}

# Each page is kept under its path and the query parameters it reads, sorted: any other parameter (?utm_source=, a
# counter) is dropped before the lookup and before the origin sees the address, so it shares the page's one object.
# The lists are the route table's `query` (shell/platform/src/routeTable.ts), which the origin's own caches key on
# (api/src/http/canonicalAddress.ts); api/src/http/varnishQuery.test.ts holds the two side by side. A path matches as
# the origin matches it: any case, an optional trailing slash.
sub query_keep {
    if (req.url ~ "^/(assets|remotes)/") {
        # Files named by their content: the origin reads no parameter of theirs.
        set req.url = regsub(req.url, "\?.*$", "");
    } elsif (req.url ~ "(?i)^/(\?|$)") {
        set req.url = regsuball(req.url, "(?<=[?&])(?!(?:search|category|type|sort|size|page)(?:[=&]|$))[^&]*(?:&|$)", "");
    } elsif (req.url ~ "(?i)^/tool/[^/?]+/?(\?|$)") {
        set req.url = regsuball(req.url, "(?<=[?&])(?!(?:os)(?:[=&]|$))[^&]*(?:&|$)", "");
    } elsif (req.url ~ "(?i)^/blog/?(\?|$)") {
        set req.url = regsuball(req.url, "(?<=[?&])(?!(?:search|category|page)(?:[=&]|$))[^&]*(?:&|$)", "");
    } elsif (req.url ~ "(?i)^/advertise/?(\?|$)") {
        set req.url = regsuball(req.url, "(?<=[?&])(?!(?:waitlist|subscribed)(?:[=&]|$))[^&]*(?:&|$)", "");
    } elsif (req.url ~ "(?i)^/submit/?(\?|$)") {
        set req.url = regsuball(req.url, "(?<=[?&])(?!(?:submitted)(?:[=&]|$))[^&]*(?:&|$)", "");
    } elsif (req.url ~ "(?i)^/contact/?(\?|$)") {
        set req.url = regsuball(req.url, "(?<=[?&])(?!(?:sent)(?:[=&]|$))[^&]*(?:&|$)", "");
    } elsif (req.url ~ "(?i)^/(blog/[^/?]+|privacy|terms|cookies)/?(\?|$)") {
        set req.url = regsub(req.url, "\?.*$", "");
    }
    # What is left: no dangling separator, and one order.
    set req.url = std.querysort(regsub(req.url, "[?&]+$", ""));
}

sub vcl_hash {
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host);
    } else {
        hash_data(server.ip);
    }
    # The side, not the cookie: one copy of a page per side.
    if (req.http.Release-Side) {
        hash_data(req.http.Release-Side);
    }
    return (lookup);
}

sub vcl_backend_response {
    # Kept only when the origin says so: no guessed lifetime for an answer without Cache-Control.
    if (!beresp.http.Cache-Control) {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # A page made for another side than the one asked for (a canary changed meanwhile) is not kept.
    if (bereq.http.Release-Side && beresp.http.Release-Side && bereq.http.Release-Side != beresp.http.Release-Side) {
        set beresp.uncacheable = true;
        set beresp.ttl = 0s;
        return (deliver);
    }
    # The shared cache's own lifetime (CDN-Cache-Control), and its stale-if-error as grace.
    if (beresp.http.CDN-Cache-Control ~ "max-age=[0-9]+") {
        set beresp.ttl = std.duration(regsub(beresp.http.CDN-Cache-Control, "^.*max-age=([0-9]+).*$", "\1s"), 0s);
        if (beresp.http.CDN-Cache-Control ~ "stale-if-error=[0-9]+") {
            set beresp.grace = std.duration(
                regsub(beresp.http.CDN-Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
        }
    }
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
}

sub vcl_deliver {
    if (req.http.X-Edge-Url) {
        # The side's answer: back to the page, keyed by that side (stable when the origin could not say).
        set req.http.Release-Side = resp.http.Release-Side;
        if (!req.http.Release-Side) {
            set req.http.Release-Side = "stable";
        }
        set req.url = req.http.X-Edge-Url;
        unset req.http.X-Edge-Url;
        return (restart);
    }
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    unset resp.http.xkey;
    unset resp.http.Surrogate-Key;
    unset resp.http.Surrogate-Control;
    unset resp.http.Release-Side;
}
