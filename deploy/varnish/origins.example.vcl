# The deployment's part of site.vcl: copy to origins.vcl on varnishd's vcl_path and name the instances.
import directors;

# An instance is taken out while /api/health fails; with none left, pages are served stale (site.vcl).
probe site_health {
    .url = "/api/health";
    .interval = 1s;
    .timeout = 2s;
    .window = 3;
    .threshold = 2;
}

backend instance_a { .host = "10.0.0.11"; .port = "8080"; .probe = site_health; }
backend instance_b { .host = "10.0.0.12"; .port = "8080"; .probe = site_health; }

# Who may send PURGE (the instances: PURGE_URLS names this cache).
acl purgers {
    "10.0.0.0"/24;
    "127.0.0.1";
}

sub vcl_init {
    new origins = directors.round_robin();
    origins.add_backend(instance_a);
    origins.add_backend(instance_b);
}

sub origin_pick {
    set req.backend_hint = origins.backend();
}
