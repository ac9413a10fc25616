-- The crawl statuses the crawl-*.lua scripts test, by the meta hash's `status` field (false when the crawl is
-- missing): CRAWL_STATUSES and TERMINAL_STATUSES in packages/frontier/src/types.ts.

-- Not ended: its queues and leases still count (a terminal status dropped them: crawl-transition-3.lua).
local function crawlIsLive(status)
  return status == 'queued' or status == 'running' or status == 'paused'
end

-- Hands out leases: live and not paused.
local function crawlIsLeasing(status)
  return status == 'queued' or status == 'running'
end
