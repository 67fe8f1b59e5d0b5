-- SPDX-License-Identifier: BSD-3-Clause
--[[
Wireshark dissector for dfly traces: the fabric frames of wire format v2 (include/dfly/wire.h),
EtherType 0x88B5 data frames and 0x88B6 control frames (CREDIT, PB_STATE, ECTN_PARTIAL in its
FULL, SPARSE and DELTA formats, HELLO, ACK, LINK_STATE, SYNC), and the metadata records of trace capture format v1
(include/dfly/trace.h, link type DLT_USER0 = 147): a 48-byte header naming the router, port, VC,
capture point and the hop's routing decision, then the Ethernet frame, handed to the eth dissector.

Three protocols, one per entry point: `dfly` (data), `dfly.ctrl` (control), `dfly.meta`
(metadata). Their display-filter fields are dfly.*, dfly.ctrl.* and dfly.meta.* (list them with
`tshark -X lua_script:dfly.lua -G fields | grep dfly`). It checks what the wire decoders of
asic-emu/wire.c check without a topology (lengths, versions, types, counts, reserved bits, list
order, tails beyond the Ethernet padding) in the same order, and reports each problem as an
expert info of group Malformed named like the decoder's error ("bad_count: ..."); ids checked
against the topology (node, router, VC, port ranges) are shown, not judged. It never reads a byte
outside what the capture holds. Installation and examples: tools/wireshark/README.md.

Enum fields (dfly.type, dfly.ctrl.type, dfly.ctrl.ectn.format, dfly.ctrl.hello.arr,
dfly.meta.point, .port_kind, .decision, .trigger, .drop_reason, .level) carry value strings, the
name tables of the generated block below (printed from the headers' X-macro lists): the tree
shows "Decision: src_nonmin_ugal (6)" and filters take the name
(dfly.meta.decision == "src_nonmin_ugal"). `tshark -T fields -e dfly.meta.decision` prints 6:
tshark prints the raw value of every field in field output (so does -e ip.proto). For names in
field output use a custom column, which prints the value string:
  tshark -X lua_script:dfly.lua -r t.pcap -o 'gui.column.format:"dec","%Cus:dfly.meta.decision"'
      -T fields -e dfly.meta.cycle -e _ws.col.dec
(the wireshark-dissector test checks this for every enum field).
]]

-- BEGIN GENERATED: printed by `mkpcap --lua-tables` (tests/wireshark/mkpcap.c) from the headers;
-- the wireshark-tables test fails when this block differs from what the headers say.
local WIRE_VERSION = 2
local ETHERTYPE_DATA = 0x88b5
local ETHERTYPE_CTRL = 0x88b6
local DATA_HDR_LEN = 48
local CTRL_HDR_LEN = 8
local ETHERTYPE_BUNDLE = 0x88b7
local BUNDLE_HDR_LEN = 4
local BUNDLE_MAX = 1500
local ETH_LEN = 14
local ETH_MIN_BODY = 46
local NO_ROUTER = 0xffffffff
local MAX_GLOBAL_HOPS = 2
local MAX_LOCAL_HOPS = 3
local CREDIT_MAX = 32
local ECTN_MAX = 1023
local ECTN_LIST_MAX = 258
local FAIL_MAX = 64
local MAX_H = 16
local MAX_VCS = 8
local F_NONMIN = 0x01
local F_PHASE = 0x02
local F_MANDATORY_GLOBAL = 0x04
local F_LOCAL_MISROUTE_DONE = 0x08
local F_REPLY = 0x10
local F_PB = 0x20
local F_NOINTER = 0x40
local F_RES_MIN = 0x80
local RES_LEN = 12
local F_ALL = 0xff
local CREDIT_F_MIN = 0x01
local CREDIT_F_ABS = 0x02
local CREDIT_F_ALL = 0x03
local ACK_F_NAK = 0x01
local TRACE_MAGIC = 0x44464c54
local TRACE_VERSION = 1
local TRACE_META_LEN = 48
local TRACE_NONE = 0xffff
local TRACE_F_NONMIN = 0x01
local TRACE_F_VALIANT = 0x02
local TRACE_F_PHASE1 = 0x04
local TRACE_F_SAT = 0x08
local TRACE_F_L1 = 0x10
local TRACE_F_L2 = 0x20
local TRACE_F_ALL = 0x3f
local LEVEL_NONE = 0xff
local PKT_SYNTH = 1
local PKT_HOST = 2
local PKT_INFO = 3
local PKT_RES_REQ = 4
local PKT_RES_REP = 5
local CTRL_CREDIT = 1
local CTRL_PB_STATE = 2
local CTRL_ECTN_PARTIAL = 3
local CTRL_HELLO = 4
local CTRL_ACK = 5
local CTRL_LINK_STATE = 6
local CTRL_SYNC = 7
local ECTN_FULL = 0
local pkt_names = {
    [1] = "synth",
    [2] = "host",
    [3] = "info",
    [4] = "res_req",
    [5] = "res_rep",
}
local ctrl_names = {
    [1] = "credit",
    [2] = "pb_state",
    [3] = "ectn_partial",
    [4] = "hello",
    [5] = "ack",
    [6] = "link_state",
    [7] = "sync",
}
local ectn_fmt_names = {
    [0] = "full",
    [1] = "sparse",
    [2] = "delta",
}
local arrangement_names = {
    [0] = "palmtree",
    [1] = "consecutive",
}
local wire_err_descs = {
    truncated = "frame shorter than its headers and declared contents",
    bad_ethertype = "EtherType is not the one this decoder handles",
    bad_version = "header version is not DFLY_WIRE_VERSION",
    bad_type = "unknown packet or control message type",
    bad_node = "source or destination node out of range",
    bad_router = "router or group id out of range",
    bad_vc = "VC or VC count out of range",
    bad_size = "size in phits zero or too large, or payload length not matching the frame",
    bad_hops = "global or local hop count out of range",
    bad_count = "entry count out of range, not matching the topology or the frame length",
    bad_port = "port out of range or not a fabric port",
    reserved = "a reserved field or flag bit is not zero",
    nospc = "output buffer too small for the frame",
    bad_topo = "HELLO fingerprint differs from the local topology",
    miswired = "HELLO sender is not the peer the topology expects on this port",
    bad_format = "unknown body format (ECTN_PARTIAL format byte)",
    bad_index = "list entry index out of range (ECTN_PARTIAL: index >= n)",
    unsorted = "list entry indices not strictly increasing (a duplicate or an unsorted entry)",
}
local trace_point_names = {
    [0] = "host_rx",
    [1] = "host_tx",
    [2] = "port_rx",
    [3] = "port_tx",
    [4] = "vc_enq",
    [5] = "drop",
}
local TRACE_DROP = 5
local port_kind_names = {
    [0] = "terminal",
    [1] = "local",
    [2] = "global",
}
local lia_level_names = {
    [0] = "benign",
    [1] = "mix",
    [2] = "adv",
}
local drop_names = {
    [0] = "inj_full",
    [1] = "bad_dst",
    [2] = "bad_vc",
    [3] = "bad_port",
    [4] = "no_room",
    [5] = "decode",
    [6] = "ctrl_host",
    [7] = "cpu_rx_full",
    [8] = "cpu_tx_bad",
    [9] = "ctrl_link_full",
    [10] = "host_spoof",
    [11] = "host_unknown_dst",
    [12] = "host_non_unicast",
    [13] = "host_bad_frame",
    [14] = "host_tx_full",
    [15] = "fabric_other",
    [16] = "link_down",
    [17] = "ctrl_unsupported",
    [18] = "not_peer",
    [19] = "no_mbuf",
    [20] = "decode_truncated",
    [21] = "decode_version",
    [22] = "decode_type",
    [23] = "decode_range",
    [24] = "ctrl_port_down",
    [25] = "link_dead",
    [26] = "ctrl_fault",
}
local route_ctr_names = {
    [0] = "inj_min",
    [1] = "inj_val",
    [2] = "inj_min_no_intermediate",
    [3] = "inj_global_misroute",
    [4] = "src_min_intra",
    [5] = "src_min_ugal",
    [6] = "src_nonmin_ugal",
    [7] = "src_nonmin_sat",
    [8] = "nonmin_no_candidate",
    [9] = "par_transit_nonmin",
    [10] = "par_transit_min",
    [11] = "olm_local_src",
    [12] = "olm_mandatory_global",
    [13] = "olm_local_inter",
    [14] = "olm_local_dst",
    [15] = "olm_no_candidate",
    [16] = "cc_trig_contention",
    [17] = "cc_trig_credit",
    [18] = "cc_trig_ectn",
    [19] = "path_min",
    [20] = "path_g",
    [21] = "path_gl",
    [22] = "path_lg",
    [23] = "path_lgl",
    [24] = "lia_level_benign",
    [25] = "lia_level_mix",
    [26] = "lia_level_adv",
    [27] = "val_reached",
    [28] = "hop_local",
    [29] = "hop_global",
    [30] = "eject",
    [31] = "fw_expired",
    [32] = "fail_nonmin",
    [33] = "fail_redraw",
    [34] = "fail_reroute",
    [35] = "fail_wait",
    [36] = "res_min",
    [37] = "res_val",
    [38] = "res_grant",
    [39] = "res_deny",
    [40] = "res_wait_cycles",
}
-- END GENERATED

local band, bor, rshift, lshift = bit32.band, bit32.bor, bit32.rshift, bit32.lshift

-- Value strings: the tables above, plus the "does not apply" values of the metadata header.
local function with_none(t, none)
    local r = {}
    for k, v in pairs(t) do
        r[k] = v
    end
    r[none] = "none"
    return r
end
local route_ctr_vs = with_none(route_ctr_names, TRACE_NONE)
local drop_vs = with_none(drop_names, TRACE_NONE)
local level_vs = with_none(lia_level_names, LEVEL_NONE)

-- Names of the metadata header's own checks (trace.h has no decoder; wire errors are above).
local meta_err_descs = {
    truncated = "record shorter than the metadata header and a frame",
    bad_magic = "metadata magic is not DFLT",
    bad_version = "metadata version is not DFLY_TRACE_VERSION",
    bad_len = "metadata header length is not the one of this version",
    bad_point = "unknown capture point",
    bad_port_kind = "port kind is not terminal, local or global",
    bad_counter = "decision or trigger is neither a route counter nor none",
    bad_drop = "drop reason not a drop reason on a drop record, or not none elsewhere",
    reserved = "a reserved flag bit is not zero",
    bad_level = "LIA level is neither a level nor none",
}

-- ---------------------------------------------------------------------------------------------
-- Protocols and fields

local p_data = Proto("dfly", "Dragonfly fabric data frame")
local p_ctrl = Proto("dfly.ctrl", "Dragonfly fabric control frame")
local p_meta = Proto("dfly.meta", "Dragonfly trace metadata")

local fd = {
    version = ProtoField.uint8("dfly.version", "Version", base.DEC),
    type = ProtoField.uint8("dfly.type", "Packet type", base.DEC, pkt_names),
    flags = ProtoField.uint8("dfly.flags", "Flags", base.HEX),
    nonmin = ProtoField.bool("dfly.nonmin", "Nonminimal", 8, nil, F_NONMIN),
    phase = ProtoField.bool("dfly.phase", "Phase (towards destination)", 8, nil, F_PHASE),
    mandatory_global = ProtoField.bool("dfly.mandatory_global", "Mandatory global", 8, nil,
        F_MANDATORY_GLOBAL),
    local_misroute_done = ProtoField.bool("dfly.local_misroute_done", "Local misroute done", 8,
        nil, F_LOCAL_MISROUTE_DONE),
    reply = ProtoField.bool("dfly.reply", "Reply", 8, nil, F_REPLY),
    pb = ProtoField.bool("dfly.pb", "PB vector", 8, nil, F_PB),
    nointer = ProtoField.bool("dfly.nointer", "No intermediate group", 8, nil, F_NOINTER),
    res_min = ProtoField.bool("dfly.res_min", "RES: minimal channel reserved", 8, nil,
        F_RES_MIN),
    res_cookie = ProtoField.uint32("dfly.res.cookie", "RES cookie", base.HEX),
    res_rbar = ProtoField.uint32("dfly.res.rbar", "RES R average (phits)", base.DEC),
    res_len = ProtoField.uint16("dfly.res.len", "RES length (phits)", base.DEC),
    res_gc = ProtoField.uint8("dfly.res.gc", "RES global channel (port index)", base.DEC),
    res_grant = ProtoField.uint8("dfly.res.grant", "RES grant", base.DEC),
    ghops = ProtoField.uint8("dfly.ghops", "Global hops", base.DEC),
    lhops = ProtoField.uint8("dfly.lhops", "Local hops in group", base.DEC),
    vc = ProtoField.uint8("dfly.vc", "VC", base.DEC),
    size_phits = ProtoField.uint16("dfly.size_phits", "Size (phits)", base.DEC),
    src_node = ProtoField.uint32("dfly.src_node", "Source node", base.DEC),
    dst_node = ProtoField.uint32("dfly.dst_node", "Destination node", base.DEC),
    via_router = ProtoField.uint32("dfly.via_router", "Valiant router", base.DEC),
    seq = ProtoField.uint32("dfly.seq", "Sequence number", base.DEC),
    gen_cycle = ProtoField.uint64("dfly.gen_cycle", "Generation cycle", base.DEC),
    pb_vec = ProtoField.uint32("dfly.pb_vec", "PB vector", base.HEX),
    tag = ProtoField.uint32("dfly.tag", "Tag", base.HEX),
    payload_len = ProtoField.uint16("dfly.payload_len", "Payload length", base.DEC),
    path_lhops = ProtoField.uint8("dfly.path_lhops", "Local hops on the path", base.DEC),
    reserved = ProtoField.uint8("dfly.reserved", "Reserved", base.HEX),
    inj_delay = ProtoField.uint32("dfly.inj_delay", "Injection delay (cycles)", base.DEC),
    payload = ProtoField.bytes("dfly.payload", "Payload"),
    trailer = ProtoField.bytes("dfly.trailer", "Trailing bytes"),
}
p_data.fields = fd
local ef_data = ProtoExpert.new("dfly.malformed", "Malformed dfly data frame",
    expert.group.MALFORMED, expert.severity.ERROR)
local ef_data_snap = ProtoExpert.new("dfly.snaplen", "Header cut by the snap length",
    expert.group.UNDECODED, expert.severity.WARN)
p_data.experts = {ef_data, ef_data_snap}

local fc = {
    version = ProtoField.uint8("dfly.ctrl.version", "Version", base.DEC),
    type = ProtoField.uint8("dfly.ctrl.type", "Control type", base.DEC, ctrl_names),
    body_len = ProtoField.uint16("dfly.ctrl.body_len", "Body length", base.DEC),
    src_router = ProtoField.uint32("dfly.ctrl.src_router", "Source router", base.DEC),
    body = ProtoField.bytes("dfly.ctrl.body", "Body"),
    padding = ProtoField.bytes("dfly.ctrl.padding", "Ethernet padding"),
    reserved = ProtoField.bytes("dfly.ctrl.reserved", "Reserved"),
    -- CREDIT
    credit_n = ProtoField.uint8("dfly.ctrl.credit.n", "Entries", base.DEC),
    credit_due = ProtoField.uint64("dfly.ctrl.credit.due",
        "Cycle the newest credit was due (0xffffffffffffffff: none new, a refresh)", base.DEC),
    credit_entry = ProtoField.bytes("dfly.ctrl.credit.entry", "Credit entry"),
    credit_vc = ProtoField.uint8("dfly.ctrl.credit.vc", "VC", base.DEC),
    credit_flags = ProtoField.uint8("dfly.ctrl.credit.flags", "Flags", base.HEX),
    credit_min = ProtoField.bool("dfly.ctrl.credit.min", "Minimal", 8, nil, CREDIT_F_MIN),
    credit_abs = ProtoField.bool("dfly.ctrl.credit.abs", "Absolute (running total)", 8, nil,
        CREDIT_F_ABS),
    credit_phits = ProtoField.uint16("dfly.ctrl.credit.phits", "Phits", base.DEC),
    -- PB_STATE
    pb_h = ProtoField.uint8("dfly.ctrl.pb.h", "Global ports (h)", base.DEC),
    pb_vg = ProtoField.uint8("dfly.ctrl.pb.vg", "Global VCs (vg)", base.DEC),
    pb_bits = ProtoField.bytes("dfly.ctrl.pb.bits", "Saturation bits"),
    pb_sat = ProtoField.uint8("dfly.ctrl.pb.sat", "Saturated VCs of global port", base.HEX),
    -- ECTN_PARTIAL
    ectn_epoch = ProtoField.uint8("dfly.ctrl.ectn.epoch", "Epoch", base.DEC),
    ectn_format = ProtoField.uint8("dfly.ctrl.ectn.format", "ECtN format", base.DEC,
        ectn_fmt_names),
    ectn_n = ProtoField.uint16("dfly.ctrl.ectn.n", "Counters (n)", base.DEC),
    ectn_m = ProtoField.uint16("dfly.ctrl.ectn.m", "List entries (m)", base.DEC),
    ectn_counter = ProtoField.uint8("dfly.ctrl.ectn.counter", "Counter", base.DEC),
    ectn_entry = ProtoField.uint16("dfly.ctrl.ectn.entry", "Entry", base.HEX),
    ectn_index = ProtoField.uint16("dfly.ctrl.ectn.index", "Index", base.DEC, nil, 0xfff0),
    ectn_value = ProtoField.uint16("dfly.ctrl.ectn.value", "Value", base.DEC, nil, 0x000f),
    -- HELLO
    hello_port = ProtoField.uint16("dfly.ctrl.hello.port", "Sender port", base.DEC),
    hello_arr = ProtoField.uint8("dfly.ctrl.hello.arr", "Arrangement", base.DEC,
        arrangement_names),
    hello_sigma = ProtoField.int8("dfly.ctrl.hello.sigma", "Sigma", base.DEC),
    hello_p = ProtoField.uint16("dfly.ctrl.hello.p", "Terminals per router (p)", base.DEC),
    hello_a = ProtoField.uint16("dfly.ctrl.hello.a", "Routers per group (a)", base.DEC),
    hello_h = ProtoField.uint16("dfly.ctrl.hello.h", "Global ports per router (h)", base.DEC),
    hello_t = ProtoField.uint16("dfly.ctrl.hello.t", "Trunking (t)", base.DEC),
    hello_cfg_hash = ProtoField.uint32("dfly.ctrl.hello.cfg_hash", "Configuration hash",
        base.HEX),
    -- ACK
    ack_ack = ProtoField.uint32("dfly.ctrl.ack.ack", "Next expected sequence number", base.DEC),
    ack_flags = ProtoField.uint8("dfly.ctrl.ack.flags", "Flags", base.HEX),
    ack_nak = ProtoField.bool("dfly.ctrl.ack.nak", "NAK", 8, nil, ACK_F_NAK),
    ack_taken = ProtoField.uint64("dfly.ctrl.ack.taken",
        "Cycle the receiver took frame ack - 1 (0xffffffffffffffff: none yet)", base.DEC),
    -- SYNC (lockstep)
    sync_next = ProtoField.uint64("dfly.ctrl.sync.next", "Sender's next cycle to step",
        base.DEC),
    sync_due = ProtoField.uint64("dfly.ctrl.sync.due",
        "Due cycle of the next frame (0xffffffffffffffff: none)", base.DEC),
    -- LINK_STATE
    ls_h = ProtoField.uint8("dfly.ctrl.ls.h", "Global ports (h)", base.DEC),
    ls_n = ProtoField.uint8("dfly.ctrl.ls.n", "Entries (n)", base.DEC),
    ls_down = ProtoField.uint16("dfly.ctrl.ls.down", "Own global ports down", base.HEX),
    ls_entry = ProtoField.uint32("dfly.ctrl.ls.entry", "Entry", base.HEX),
    ls_group_a = ProtoField.uint32("dfly.ctrl.ls.group_a", "Group a", base.DEC, nil, 0x000007ff),
    ls_group_b = ProtoField.uint32("dfly.ctrl.ls.group_b", "Group b", base.DEC, nil, 0x003ff800),
    ls_ttl = ProtoField.uint32("dfly.ctrl.ls.ttl", "Relay hops left (ttl)", base.DEC, nil,
        0x03c00000),
}
p_ctrl.fields = fc
local ef_ctrl = ProtoExpert.new("dfly.ctrl.malformed", "Malformed dfly control frame",
    expert.group.MALFORMED, expert.severity.ERROR)
p_ctrl.experts = {ef_ctrl}

local fm = {
    magic = ProtoField.uint32("dfly.meta.magic", "Magic", base.HEX),
    version = ProtoField.uint8("dfly.meta.version", "Version", base.DEC),
    point = ProtoField.uint8("dfly.meta.point", "Capture point", base.DEC, trace_point_names),
    hdr_len = ProtoField.uint16("dfly.meta.hdr_len", "Header length", base.DEC),
    router = ProtoField.uint32("dfly.meta.router", "Router", base.DEC),
    port = ProtoField.uint16("dfly.meta.port", "Port", base.DEC),
    vc = ProtoField.uint8("dfly.meta.vc", "VC", base.DEC),
    port_kind = ProtoField.uint8("dfly.meta.port_kind", "Port kind", base.DEC, port_kind_names),
    cycle = ProtoField.uint64("dfly.meta.cycle", "Cycle", base.DEC),
    decision = ProtoField.uint16("dfly.meta.decision", "Decision", base.DEC, route_ctr_vs),
    trigger = ProtoField.uint16("dfly.meta.trigger", "Trigger", base.DEC, route_ctr_vs),
    drop_reason = ProtoField.uint16("dfly.meta.drop_reason", "Drop reason", base.DEC, drop_vs),
    flags = ProtoField.uint8("dfly.meta.flags", "Flags", base.HEX),
    nonmin = ProtoField.bool("dfly.meta.nonmin", "Nonminimal", 8, nil, TRACE_F_NONMIN),
    valiant = ProtoField.bool("dfly.meta.valiant", "Has a Valiant router", 8, nil,
        TRACE_F_VALIANT),
    phase1 = ProtoField.bool("dfly.meta.phase1", "Reached the Valiant router", 8, nil,
        TRACE_F_PHASE1),
    sat = ProtoField.bool("dfly.meta.sat", "PB saturation bit", 8, nil, TRACE_F_SAT),
    l1 = ProtoField.bool("dfly.meta.l1", "LIA L1", 8, nil, TRACE_F_L1),
    l2 = ProtoField.bool("dfly.meta.l2", "LIA L2", 8, nil, TRACE_F_L2),
    flags_reserved = ProtoField.uint8("dfly.meta.flags.reserved", "Reserved flags", base.HEX, nil,
        band(0xff, bit32.bnot(TRACE_F_ALL))),
    level = ProtoField.uint8("dfly.meta.level", "LIA level", base.DEC, level_vs),
    q_min = ProtoField.int32("dfly.meta.q_min", "Q_min (phits)", base.DEC),
    q_val = ProtoField.int32("dfly.meta.q_val", "Q_val (phits)", base.DEC),
    t = ProtoField.int32("dfly.meta.t", "UGAL threshold T (phits)", base.DEC),
    cc = ProtoField.uint16("dfly.meta.cc", "Contention counter", base.DEC),
    ectn_combined = ProtoField.uint16("dfly.meta.ectn_combined", "ECtN combined", base.DEC),
}
p_meta.fields = fm
local ef_meta = ProtoExpert.new("dfly.meta.malformed", "Malformed dfly metadata record",
    expert.group.MALFORMED, expert.severity.ERROR)
p_meta.experts = {ef_meta}

local eth_dissector = Dissector.get("eth_withoutfcs")

-- A tvb made in Lua from a range reports only its captured bytes: the length of a frame that
-- the capture cut to the snap length is lost. call_eth() says how many bytes are missing, and
-- the first dfly dissector under that call adds them back (reported_len()).
local pending_cut = 0

local function reported_len(tvb)
    local cut = pending_cut
    pending_cut = 0
    return tvb:reported_len() + cut
end

-- Hand @tvb (at least an Ethernet header, captured) to the eth dissector; @cut bytes of the
-- frame were not captured.
local function call_eth(tvb, pinfo, tree, cut)
    pending_cut = cut
    eth_dissector:call(tvb, pinfo, tree)
    pending_cut = 0
end

-- ---------------------------------------------------------------------------------------------
-- Helpers: every read goes through these, after a check that the bytes were captured.

-- A range of @len bytes at @off, clamped to what was captured (nil if @off is past it).
local function rng(tvb, off, len)
    local clen = tvb:len()
    if off > clen then
        return nil
    end
    if len == nil or off + len > clen then
        len = clen - off
    end
    return tvb:range(off, len)
end

-- Add @field over @len bytes at @off if they were captured; the item, or nil.
local function add(tree, field, tvb, off, len)
    if off + len > tvb:len() then
        return nil
    end
    return tree:add(field, tvb:range(off, len))
end

local function u8(tvb, off)
    return tvb:range(off, 1):uint()
end

local function u16(tvb, off)
    return tvb:range(off, 2):uint()
end

local function u32(tvb, off)
    return tvb:range(off, 4):uint()
end

-- Report a problem on @item (or the protocol item): "name: description (detail)".
local function malformed(item, ef, descs, name, detail)
    local text = name .. ": " .. (descs[name] or name)
    if detail ~= nil then
        text = text .. " (" .. detail .. ")"
    end
    item:add_proto_expert_info(ef, text)
end

local function wire_err(item, ef, name, detail)
    malformed(item, ef, wire_err_descs, name, detail)
end

-- "NONMIN,PHASE": the names of the bits set in @v, and the value of the others in hex.
local function flag_names(v, list)
    local s = {}
    for _, f in ipairs(list) do
        if band(v, f[1]) ~= 0 then
            s[#s + 1] = f[2]
            v = band(v, bit32.bnot(f[1]))
        end
    end
    if v ~= 0 then
        s[#s + 1] = string.format("0x%02x", v)
    end
    return table.concat(s, ",")
end

local data_flag_list = {
    {F_NONMIN, "NONMIN"}, {F_PHASE, "PHASE"}, {F_MANDATORY_GLOBAL, "MANDATORY_GLOBAL"},
    {F_LOCAL_MISROUTE_DONE, "LOCAL_MISROUTE_DONE"}, {F_REPLY, "REPLY"}, {F_PB, "PB"},
    {F_NOINTER, "NOINTER"}, {F_RES_MIN, "RES_MIN"},
}
local meta_flag_list = {
    {TRACE_F_NONMIN, "NONMIN"}, {TRACE_F_VALIANT, "VALIANT"}, {TRACE_F_PHASE1, "PHASE1"},
    {TRACE_F_SAT, "SAT"}, {TRACE_F_L1, "L1"}, {TRACE_F_L2, "L2"},
}

local function name_of(t, v)
    return t[v] or ("unknown(" .. v .. ")")
end

-- ---------------------------------------------------------------------------------------------
-- Data frames (0x88B5). The order of the checks is the one of dfly_wire_data_decode().

function p_data.dissector(tvb, pinfo, tree)
    local rlen, clen = reported_len(tvb), tvb:len()
    pinfo.cols.protocol = "DFLY"
    local t = tree:add(p_data, rng(tvb, 0, DATA_HDR_LEN), "Dragonfly data")
    if rlen < DATA_HDR_LEN then
        add(t, fd.version, tvb, 0, 1)
        wire_err(t, ef_data, "truncated",
            "data header is " .. DATA_HDR_LEN .. " bytes, frame has " .. rlen)
        pinfo.cols.info = "DATA [malformed: truncated]"
        return clen
    end
    if clen < DATA_HDR_LEN then
        t:add_proto_expert_info(ef_data_snap, "data header cut by the snap length (" .. clen ..
            " of " .. DATA_HDR_LEN .. " bytes captured)")
        pinfo.cols.info = "DATA [header cut by the snap length]"
        return clen
    end

    local version = u8(tvb, 0)
    local vi = t:add(fd.version, tvb(0, 1))
    if version ~= WIRE_VERSION then
        wire_err(vi, ef_data, "bad_version", "got " .. version .. ", want " .. WIRE_VERSION)
        pinfo.cols.info = "DATA [malformed: bad_version " .. version .. "]"
        return clen
    end

    local typ, flags = u8(tvb, 1), u8(tvb, 2)
    local ghops, lhops = u8(tvb, 3), u8(tvb, 4)
    local size = u16(tvb, 6)
    local src, dst, via = u32(tvb, 8), u32(tvb, 12), u32(tvb, 16)
    local pb_vec, plen, rsvd = u32(tvb, 32), u16(tvb, 40), u8(tvb, 43)
    local errs = {}

    local ti = t:add(fd.type, tvb(1, 1))
    local fi = t:add(fd.flags, tvb(2, 1))
    if flags ~= 0 then
        fi:append_text(" (" .. flag_names(flags, data_flag_list) .. ")")
    end
    fi:add(fd.nonmin, tvb(2, 1))
    fi:add(fd.phase, tvb(2, 1))
    fi:add(fd.mandatory_global, tvb(2, 1))
    fi:add(fd.local_misroute_done, tvb(2, 1))
    fi:add(fd.reply, tvb(2, 1))
    fi:add(fd.pb, tvb(2, 1))
    fi:add(fd.nointer, tvb(2, 1))
    fi:add(fd.res_min, tvb(2, 1))
    local ghi = t:add(fd.ghops, tvb(3, 1))
    local lhi = t:add(fd.lhops, tvb(4, 1))
    t:add(fd.vc, tvb(5, 1))
    local si = t:add(fd.size_phits, tvb(6, 2))
    t:add(fd.src_node, tvb(8, 4))
    t:add(fd.dst_node, tvb(12, 4))
    local vri = t:add(fd.via_router, tvb(16, 4))
    if via == NO_ROUTER then
        vri:append_text(" (none)")
    end
    t:add(fd.seq, tvb(20, 4))
    t:add(fd.gen_cycle, tvb(24, 8))
    local pbi = t:add(fd.pb_vec, tvb(32, 4))
    t:add(fd.tag, tvb(36, 4))
    local pli = t:add(fd.payload_len, tvb(40, 2))
    t:add(fd.path_lhops, tvb(42, 1))
    local ri = t:add(fd.reserved, tvb(43, 1))
    t:add(fd.inj_delay, tvb(44, 4))

    -- the type first, so an unknown type is reported as such and not by its size rule
    if pkt_names[typ] == nil then
        wire_err(ti, ef_data, "bad_type", "packet type " .. typ)
        errs[#errs + 1] = "bad_type"
    end
    if rsvd ~= 0 then
        wire_err(ri, ef_data, "reserved", "byte 43 is " .. rsvd)
        errs[#errs + 1] = "reserved"
    end
    local end_ = DATA_HDR_LEN + plen
    local truncated = rlen < end_
    if truncated then
        wire_err(pli, ef_data, "truncated",
            "payload of " .. plen .. " bytes, frame has " .. (rlen - DATA_HDR_LEN))
        errs[#errs + 1] = "truncated"
    end
    if band(flags, bit32.bnot(F_ALL)) ~= 0 then
        wire_err(fi, ef_data, "reserved", string.format("flags 0x%02x", flags))
        errs[#errs + 1] = "reserved"
    end
    if band(flags, F_PB) == 0 and pb_vec ~= 0 then
        wire_err(pbi, ef_data, "reserved", "PB vector without the PB flag")
        errs[#errs + 1] = "reserved"
    end
    if ghops > MAX_GLOBAL_HOPS then
        wire_err(ghi, ef_data, "bad_hops", "global hops " .. ghops .. " > " .. MAX_GLOBAL_HOPS)
        errs[#errs + 1] = "bad_hops"
    end
    if lhops > MAX_LOCAL_HOPS then
        wire_err(lhi, ef_data, "bad_hops", "local hops " .. lhops .. " > " .. MAX_LOCAL_HOPS)
        errs[#errs + 1] = "bad_hops"
    end
    if size == 0 then
        wire_err(si, ef_data, "bad_size", "size 0 phits")
        errs[#errs + 1] = "bad_size"
    elseif typ == PKT_HOST and plen < ETH_LEN then
        wire_err(pli, ef_data, "bad_size", "host payload shorter than an Ethernet header")
        errs[#errs + 1] = "bad_size"
    elseif typ == PKT_INFO and (size ~= 1 or plen ~= 0) then
        wire_err(si, ef_data, "bad_size", "an info flit is 1 phit with no payload")
        errs[#errs + 1] = "bad_size"
    elseif (typ == PKT_RES_REQ or typ == PKT_RES_REP) and (size ~= 1 or plen ~= RES_LEN) then
        wire_err(si, ef_data, "bad_size", "a RES flit is 1 phit with a " .. RES_LEN ..
            "-byte body")
        errs[#errs + 1] = "bad_size"
    end
    if not truncated and rlen ~= end_ then
        wire_err(t, ef_data, "bad_size", (rlen - end_) .. " bytes after the payload")
        errs[#errs + 1] = "bad_size"
    end

    -- payload: as much of it as was captured
    local pcap_len = math.min(plen, math.max(clen - DATA_HDR_LEN, 0))
    if plen > 0 and pcap_len > 0 then
        local pr = tvb:range(DATA_HDR_LEN, pcap_len)
        if typ == PKT_HOST and #errs == 0 and pcap_len >= ETH_LEN then
            call_eth(pr:tvb(), pinfo, tree, plen - pcap_len)
        else
            local pi = t:add(fd.payload, pr)
            if pcap_len < plen then
                pi:append_text(" [" .. pcap_len .. " of " .. plen .. " bytes captured]")
            end
            if (typ == PKT_RES_REQ or typ == PKT_RES_REP) and #errs == 0 and
                pcap_len >= RES_LEN then
                -- the RES flit's body (spec 4.9): cookie, R average, length, channel, grant
                local o = DATA_HDR_LEN
                pi:add(fd.res_cookie, tvb(o, 4))
                pi:add(fd.res_rbar, tvb(o + 4, 4))
                pi:add(fd.res_len, tvb(o + 8, 2))
                pi:add(fd.res_gc, tvb(o + 10, 1))
                pi:add(fd.res_grant, tvb(o + 11, 1))
            end
        end
    end
    if clen > end_ then
        t:add(fd.trailer, tvb:range(end_, clen - end_))
    end

    local info = string.format("DATA %s %u->%u vc %u %u phits seq %u", name_of(pkt_names, typ),
        src, dst, u8(tvb, 5), size, u32(tvb, 20))
    if via ~= NO_ROUTER then
        info = info .. " via r" .. via
    end
    if flags ~= 0 then
        info = info .. " [" .. flag_names(flags, data_flag_list) .. "]"
    end
    if #errs > 0 then
        info = info .. " [malformed: " .. table.concat(errs, ",") .. "]"
    end
    if typ == PKT_HOST and #errs == 0 and pcap_len >= ETH_LEN then
        pinfo.cols.info:prepend(info .. " | ")
    else
        pinfo.cols.info = info
    end
    t:append_text(string.format(", %s, node %u -> %u, vc %u, %u phits",
        name_of(pkt_names, typ), src, dst, u8(tvb, 5), size))
    return clen
end

-- ---------------------------------------------------------------------------------------------
-- Control frames (0x88B6): dfly_wire_ctrl_decode() and its body decoders, in their order.

-- Bounds of body_len for a type (ctrl_body_len_plausible()).
local function body_len_plausible(typ, n)
    if typ == CTRL_CREDIT then
        return n >= 16 and n <= 12 + 4 * CREDIT_MAX
    elseif typ == CTRL_PB_STATE then
        return n > 4 and n <= 4 + MAX_H * MAX_VCS / 8
    elseif typ == CTRL_ECTN_PARTIAL then
        return n > 4 and (n <= 4 + math.floor((ECTN_MAX + 1) / 2) or n <= 6 + 2 * ECTN_LIST_MAX)
    elseif typ == CTRL_HELLO then
        return n == 16
    elseif typ == CTRL_ACK then
        return n == 16
    elseif typ == CTRL_LINK_STATE then
        return n >= 4 and n <= 4 + 4 * FAIL_MAX
    elseif typ == CTRL_SYNC then
        return n == 16
    end
    return false
end

-- Each body dissector gets the body as its own tvb (body_len bytes, all captured) and returns a
-- short summary for the Info column, and the name of the first problem found (or nil).

local function credit_body(b, t)
    local blen = b:len()
    local n = u8(b, 0)
    local first
    local ni = t:add(fc.credit_n, b(0, 1))
    if n == 0 or n > CREDIT_MAX or blen ~= 12 + 4 * n then
        wire_err(ni, ef_ctrl, "bad_count", "n " .. n .. " (1.." .. CREDIT_MAX .. "), body of " ..
            blen .. " bytes for " .. math.max(0, math.floor((blen - 12) / 4)) .. " entries")
        first = first or "bad_count"
    end
    local r1, r2 = u8(b, 1), u16(b, 2)
    local ri = t:add(fc.reserved, b(1, 3))
    if r1 ~= 0 or r2 ~= 0 then
        wire_err(ri, ef_ctrl, "reserved", "bytes 1..3 of the credit body")
        first = first or "reserved"
    end
    if blen >= 12 then
        t:add(fc.credit_due, b(4, 8))
    end
    local shown = math.min(n, math.floor((blen - 12) / 4))
    for i = 0, shown - 1 do
        local off = 12 + 4 * i
        local vc, fl, ph = u8(b, off), u8(b, off + 1), u16(b, off + 2)
        local ei = t:add(fc.credit_entry, b(off, 4))
        ei:set_text(string.format("Entry %d: vc %u, %u phits%s%s", i, vc, ph,
            band(fl, CREDIT_F_MIN) ~= 0 and ", min" or "",
            band(fl, CREDIT_F_ABS) ~= 0 and ", absolute" or ""))
        ei:add(fc.credit_vc, b(off, 1))
        local fli = ei:add(fc.credit_flags, b(off + 1, 1))
        fli:add(fc.credit_min, b(off + 1, 1))
        fli:add(fc.credit_abs, b(off + 1, 1))
        local phi = ei:add(fc.credit_phits, b(off + 2, 2))
        if band(fl, bit32.bnot(CREDIT_F_ALL)) ~= 0 then
            wire_err(fli, ef_ctrl, "reserved", string.format("entry %d flags 0x%02x", i, fl))
            first = first or "reserved"
        end
        if ph == 0 and band(fl, CREDIT_F_ABS) == 0 then
            wire_err(phi, ef_ctrl, "bad_size", "entry " .. i .. ": 0 phits")
            first = first or "bad_size"
        end
    end
    return n .. (n == 1 and " entry" or " entries"), first
end

local function pb_body(b, t)
    local blen = b:len()
    local h, vg = u8(b, 0), u8(b, 1)
    local first
    local hi = t:add(fc.pb_h, b(0, 1))
    local vi = t:add(fc.pb_vg, b(1, 1))
    if h == 0 or h > MAX_H then
        wire_err(hi, ef_ctrl, "bad_count", "h " .. h .. " (1.." .. MAX_H .. ")")
        return "h " .. h, "bad_count"
    end
    if vg == 0 or vg > MAX_VCS then
        wire_err(vi, ef_ctrl, "bad_vc", "vg " .. vg .. " (1.." .. MAX_VCS .. ")")
        return "vg " .. vg, "bad_vc"
    end
    local nbits = h * vg
    local nbytes = math.floor((nbits + 7) / 8)
    if blen ~= 4 + nbytes then
        wire_err(t, ef_ctrl, "bad_count", "body of " .. blen .. " bytes, h*vg = " .. nbits ..
            " bits want " .. (4 + nbytes))
        return "h " .. h .. " vg " .. vg, "bad_count"
    end
    local ri = t:add(fc.reserved, b(2, 2))
    if u16(b, 2) ~= 0 then
        wire_err(ri, ef_ctrl, "reserved", "bytes 2..3 of the PB body")
        first = first or "reserved"
    end
    local bi = t:add(fc.pb_bits, b(4, nbytes))
    if nbits % 8 ~= 0 and rshift(u8(b, 4 + nbytes - 1), nbits % 8) ~= 0 then
        wire_err(bi, ef_ctrl, "reserved", "padding bits after bit " .. (nbits - 1))
        first = first or "reserved"
    end
    local nsat = 0
    for q = 0, h - 1 do
        local sat = 0
        for v = 0, vg - 1 do
            local i = q * vg + v
            if band(rshift(u8(b, 4 + math.floor(i / 8)), i % 8), 1) ~= 0 then
                sat = bor(sat, lshift(1, v))
                nsat = nsat + 1
            end
        end
        local lo = 4 + math.floor(q * vg / 8)
        local hi_ = 4 + math.floor((q * vg + vg - 1) / 8)
        local si = bi:add(fc.pb_sat, b(lo, hi_ - lo + 1), sat)
        si:set_text(string.format("Global port %u: saturated VCs 0x%02x", q, sat))
    end
    return string.format("h %u vg %u, %u saturated", h, vg, nsat), first
end

local function ectn_body(b, t)
    local blen = b:len()
    local epoch, fmt, n = u8(b, 0), u8(b, 1), u16(b, 2)
    t:add(fc.ectn_epoch, b(0, 1))
    local fi = t:add(fc.ectn_format, b(1, 1))
    local ni = t:add(fc.ectn_n, b(2, 2))
    local summary = string.format("%s epoch %u n %u", name_of(ectn_fmt_names, fmt), epoch, n)
    -- the format first: it says how long the body should be
    if ectn_fmt_names[fmt] == nil then
        wire_err(fi, ef_ctrl, "bad_format", "format " .. fmt)
        return summary, "bad_format"
    end
    if n == 0 or n > ECTN_MAX then
        wire_err(ni, ef_ctrl, "bad_count", "n " .. n .. " (1.." .. ECTN_MAX .. ")")
        return summary, "bad_count"
    end
    if fmt ~= ECTN_FULL then
        if blen < 6 then
            wire_err(t, ef_ctrl, "bad_count", "list body of " .. blen .. " bytes")
            return summary, "bad_count"
        end
        local m = u16(b, 4)
        local mi = t:add(fc.ectn_m, b(4, 2))
        summary = summary .. " m " .. m
        if m > n or m > ECTN_LIST_MAX or blen ~= 6 + 2 * m then
            wire_err(mi, ef_ctrl, "bad_count", "m " .. m .. " (<= n, <= " .. ECTN_LIST_MAX ..
                "), body of " .. blen .. " bytes for " .. math.floor((blen - 6) / 2) ..
                " entries")
            return summary, "bad_count"
        end
        local first
        local prev = -1
        for i = 0, m - 1 do
            local e = u16(b, 6 + 2 * i)
            local k, v = rshift(e, 4), band(e, 0xf)
            local ei = t:add(fc.ectn_entry, b(6 + 2 * i, 2))
            ei:set_text(string.format("Entry %d: counter %u = %u", i, k, v))
            local ki = ei:add(fc.ectn_index, b(6 + 2 * i, 2))
            ei:add(fc.ectn_value, b(6 + 2 * i, 2))
            if k >= n then
                wire_err(ki, ef_ctrl, "bad_index", "index " .. k .. " >= n " .. n)
                first = first or "bad_index"
            elseif k <= prev then
                wire_err(ki, ef_ctrl, "unsorted", "index " .. k .. " after " .. prev)
                first = first or "unsorted"
            end
            if k > prev then
                prev = k
            end
        end
        return summary, first
    end
    local nbytes = math.floor((n + 1) / 2)
    if blen ~= 4 + nbytes then
        wire_err(ni, ef_ctrl, "bad_count", "body of " .. blen .. " bytes, want " .. (4 + nbytes) ..
            " for n " .. n)
        return summary, "bad_count"
    end
    local first
    if n % 2 ~= 0 and rshift(u8(b, 4 + math.floor(n / 2)), 4) ~= 0 then
        wire_err(t, ef_ctrl, "reserved", "unused last nibble")
        first = "reserved"
    end
    for k = 0, n - 1 do
        local byte = 4 + math.floor(k / 2)
        local v = band(rshift(u8(b, byte), (k % 2) * 4), 0xf)
        t:add(fc.ectn_counter, b(byte, 1), v):set_text(string.format("Counter %u: %u", k, v))
    end
    return summary, first
end

local function hello_body(b, t)
    t:add(fc.hello_port, b(0, 2))
    t:add(fc.hello_arr, b(2, 1))
    t:add(fc.hello_sigma, b(3, 1))
    t:add(fc.hello_p, b(4, 2))
    t:add(fc.hello_a, b(6, 2))
    t:add(fc.hello_h, b(8, 2))
    t:add(fc.hello_t, b(10, 2))
    t:add(fc.hello_cfg_hash, b(12, 4))
    return string.format("port %u p %u a %u h %u t %u", u16(b, 0), u16(b, 4), u16(b, 6),
        u16(b, 8), u16(b, 10)), nil
end

local function ack_body(b, t)
    local fl = u8(b, 4)
    local first
    t:add(fc.ack_ack, b(0, 4))
    local fli = t:add(fc.ack_flags, b(4, 1))
    fli:add(fc.ack_nak, b(4, 1))
    local ri = t:add(fc.reserved, b(5, 3))
    t:add(fc.ack_taken, b(8, 8))
    if band(fl, bit32.bnot(ACK_F_NAK)) ~= 0 then
        wire_err(fli, ef_ctrl, "reserved", string.format("flags 0x%02x", fl))
        first = "reserved"
    end
    if u8(b, 5) ~= 0 or u8(b, 6) ~= 0 or u8(b, 7) ~= 0 then
        wire_err(ri, ef_ctrl, "reserved", "bytes 5..7 of the ACK body")
        first = first or "reserved"
    end
    return string.format("%s %u", band(fl, ACK_F_NAK) ~= 0 and "nak" or "ack", u32(b, 0)), first
end

-- LINK_STATE (failover): ls_decode(). h is checked against the topology by the C decoder, which
-- the dissector does not know: it checks what the frame says about itself, and group ids
-- against the 11-bit field only.
local function link_state_body(b, t)
    local blen = b:len()
    local h, n, down = u8(b, 0), u8(b, 1), u16(b, 2)
    local first
    local hi = t:add(fc.ls_h, b(0, 1))
    local ni = t:add(fc.ls_n, b(1, 1))
    local di = t:add(fc.ls_down, b(2, 2))
    if h == 0 or h > MAX_H then
        wire_err(hi, ef_ctrl, "bad_count", "h " .. h .. " (1.." .. MAX_H .. ")")
        first = "bad_count"
    end
    if n > FAIL_MAX or blen ~= 4 + 4 * n then
        wire_err(ni, ef_ctrl, "bad_count", "n " .. n .. " (<= " .. FAIL_MAX .. "), body of " ..
            blen .. " bytes")
        return string.format("h %u n %u", h, n), first or "bad_count"
    end
    if first == nil and h < 16 and rshift(down, h) ~= 0 then
        wire_err(di, ef_ctrl, "reserved", string.format("down bits beyond h: 0x%04x", down))
        first = "reserved"
    end
    local downs = {}
    for q = 0, 15 do
        if band(rshift(down, q), 1) ~= 0 then
            downs[#downs + 1] = tostring(q)
        end
    end
    di:append_text(#downs > 0 and (" (global ports " .. table.concat(downs, ",") .. " down)")
        or " (none down)")
    local pairs_ = {}
    for i = 0, n - 1 do
        local v = u32(b, 4 + 4 * i)
        local a, bb, ttl = band(v, 0x7ff), band(rshift(v, 11), 0x7ff), band(rshift(v, 22), 0xf)
        local ei = t:add(fc.ls_entry, b(4 + 4 * i, 4))
        ei:set_text(string.format("Entry %d: groups %u-%u down, ttl %u", i, a, bb, ttl))
        ei:add(fc.ls_group_a, b(4 + 4 * i, 4))
        ei:add(fc.ls_group_b, b(4 + 4 * i, 4))
        ei:add(fc.ls_ttl, b(4 + 4 * i, 4))
        if rshift(v, 26) ~= 0 then
            wire_err(ei, ef_ctrl, "reserved", "entry bits 26..31")
            first = first or "reserved"
        elseif a >= bb or ttl == 0 then
            wire_err(ei, ef_ctrl, "bad_router", string.format("groups %u-%u ttl %u", a, bb, ttl))
            first = first or "bad_router"
        end
        pairs_[#pairs_ + 1] = a .. "-" .. bb
    end
    local summary = string.format("down 0x%04x", down)
    if n > 0 then
        summary = summary .. " pairs " .. table.concat(pairs_, ",")
    end
    return summary, first
end

-- SYNC (lockstep): the sender's horizon and the next frame's due cycle.
local function sync_body(b, t)
    t:add(fc.sync_next, b(0, 8))
    t:add(fc.sync_due, b(8, 8))
    local due = b(8, 8):uint64()
    if due == UInt64.max() then
        return string.format("next %s", tostring(b(0, 8):uint64())), nil
    end
    return string.format("next %s due %s", tostring(b(0, 8):uint64()), tostring(due)), nil
end

local body_dissectors = {
    [CTRL_CREDIT] = credit_body, [CTRL_PB_STATE] = pb_body, [CTRL_ECTN_PARTIAL] = ectn_body,
    [CTRL_HELLO] = hello_body, [CTRL_ACK] = ack_body, [CTRL_LINK_STATE] = link_state_body,
    [CTRL_SYNC] = sync_body,
}

function p_ctrl.dissector(tvb, pinfo, tree)
    local rlen, clen = reported_len(tvb), tvb:len()
    pinfo.cols.protocol = "DFLY"
    local t = tree:add(p_ctrl, rng(tvb, 0, nil), "Dragonfly control")
    local function bad(item, name, detail)
        wire_err(item, ef_ctrl, name, detail)
        pinfo.cols.info = "CTRL [malformed: " .. name .. "]"
        return clen
    end
    if rlen < CTRL_HDR_LEN then
        add(t, fc.version, tvb, 0, 1)
        return bad(t, "truncated", "control header is " .. CTRL_HDR_LEN ..
            " bytes, frame has " .. rlen)
    end
    if clen < CTRL_HDR_LEN then
        t:add_proto_expert_info(ef_data_snap, "control header cut by the snap length")
        return clen
    end
    local version, typ, blen, src = u8(tvb, 0), u8(tvb, 1), u16(tvb, 2), u32(tvb, 4)
    local vi = t:add(fc.version, tvb(0, 1))
    if version ~= WIRE_VERSION then
        return bad(vi, "bad_version", "got " .. version .. ", want " .. WIRE_VERSION)
    end
    local ti = t:add(fc.type, tvb(1, 1))
    local bli = t:add(fc.body_len, tvb(2, 2))
    t:add(fc.src_router, tvb(4, 4))
    local tname = name_of(ctrl_names, typ)
    t:append_text(", " .. tname .. " from router " .. src)
    local info = string.format("CTRL %s r%u", tname, src)
    if ctrl_names[typ] == nil then
        if clen > CTRL_HDR_LEN then
            t:add(fc.body, tvb:range(CTRL_HDR_LEN))
        end
        bad(ti, "bad_type", "control type " .. typ)
        pinfo.cols.info = info .. " [malformed: bad_type]"
        return clen
    end
    if not body_len_plausible(typ, blen) then
        if clen > CTRL_HDR_LEN then
            t:add(fc.body, tvb:range(CTRL_HDR_LEN))
        end
        bad(bli, "bad_count", "body length " .. blen .. " impossible for " .. tname)
        pinfo.cols.info = info .. " [malformed: bad_count]"
        return clen
    end
    local end_ = CTRL_HDR_LEN + blen
    if rlen < end_ then
        if clen > CTRL_HDR_LEN then
            t:add(fc.body, tvb:range(CTRL_HDR_LEN))
        end
        bad(bli, "truncated", "body of " .. blen .. " bytes, frame has " .. (rlen - CTRL_HDR_LEN))
        pinfo.cols.info = info .. " [malformed: truncated]"
        return clen
    end
    local first
    if rlen > end_ then
        local tail = rng(tvb, end_, nil)
        if rlen <= ETH_MIN_BODY then
            if tail ~= nil and tail:len() > 0 then
                t:add(fc.padding, tail)
            end
        else
            local item = t
            if tail ~= nil and tail:len() > 0 then
                item = t:add(fc.padding, tail)
                item:set_text("Trailing bytes (" .. (rlen - end_) .. ")")
            end
            wire_err(item, ef_ctrl, "bad_count", (rlen - end_) ..
                " bytes after the body, beyond the Ethernet padding")
            first = "bad_count"
        end
    end
    if clen < end_ then
        t:add_proto_expert_info(ef_data_snap, "control body cut by the snap length")
        pinfo.cols.info = info .. " [cut by the snap length]"
        return clen
    end
    local bt = t:add(fc.body, tvb(CTRL_HDR_LEN, blen))
    bt:set_text(tname .. " body (" .. blen .. " bytes)")
    local summary, berr = body_dissectors[typ](tvb(CTRL_HDR_LEN, blen):tvb(), bt)
    -- a bad tail is found before the body in the decoder, and so named first
    first = first or berr
    info = info .. ": " .. summary
    if first ~= nil then
        info = info .. " [malformed: " .. first .. "]"
    end
    pinfo.cols.info = info
    return clen
end

-- ---------------------------------------------------------------------------------------------
-- Metadata records (DLT_USER0): 48-byte header, then the Ethernet frame.

function p_meta.dissector(tvb, pinfo, tree)
    local rlen, clen = tvb:reported_len(), tvb:len()
    pinfo.cols.protocol = "DFLY-META"
    local t = tree:add(p_meta, rng(tvb, 0, TRACE_META_LEN), "Dragonfly trace metadata")
    local function bad(item, name, detail)
        malformed(item, ef_meta, meta_err_descs, name, detail)
    end
    if rlen < TRACE_META_LEN then
        add(t, fm.magic, tvb, 0, 4)
        bad(t, "truncated", "metadata header is " .. TRACE_META_LEN .. " bytes, record has " ..
            rlen)
        pinfo.cols.info = "META [malformed: truncated]"
        return clen
    end
    if clen < TRACE_META_LEN then
        t:add_proto_expert_info(ef_data_snap, "metadata header cut by the snap length (" ..
            clen .. " of " .. TRACE_META_LEN .. " bytes captured)")
        pinfo.cols.info = "META [header cut by the snap length]"
        return clen
    end
    local mi = t:add(fm.magic, tvb(0, 4))
    if u32(tvb, 0) ~= TRACE_MAGIC then
        bad(mi, "bad_magic", string.format("0x%08x", u32(tvb, 0)))
        pinfo.cols.info = "META [malformed: bad_magic]"
        return clen
    end
    local vi = t:add(fm.version, tvb(4, 1))
    if u8(tvb, 4) ~= TRACE_VERSION then
        bad(vi, "bad_version", "got " .. u8(tvb, 4) .. ", want " .. TRACE_VERSION)
        pinfo.cols.info = "META [malformed: bad_version]"
        return clen
    end
    local point, hlen, router, port = u8(tvb, 5), u16(tvb, 6), u32(tvb, 8), u16(tvb, 12)
    local vc, kind = u8(tvb, 14), u8(tvb, 15)
    local decision, trigger, drop = u16(tvb, 24), u16(tvb, 26), u16(tvb, 28)
    local flags, level = u8(tvb, 30), u8(tvb, 31)
    local errs = {}
    local function err(item, name, detail)
        bad(item, name, detail)
        errs[#errs + 1] = name
    end

    local pi = t:add(fm.point, tvb(5, 1))
    local hi = t:add(fm.hdr_len, tvb(6, 2))
    t:add(fm.router, tvb(8, 4))
    t:add(fm.port, tvb(12, 2))
    t:add(fm.vc, tvb(14, 1))
    local ki = t:add(fm.port_kind, tvb(15, 1))
    t:add(fm.cycle, tvb(16, 8))
    local di = t:add(fm.decision, tvb(24, 2))
    local tri = t:add(fm.trigger, tvb(26, 2))
    local dri = t:add(fm.drop_reason, tvb(28, 2))
    local fi = t:add(fm.flags, tvb(30, 1))
    if flags ~= 0 then
        fi:append_text(" (" .. flag_names(flags, meta_flag_list) .. ")")
    end
    fi:add(fm.nonmin, tvb(30, 1))
    fi:add(fm.valiant, tvb(30, 1))
    fi:add(fm.phase1, tvb(30, 1))
    fi:add(fm.sat, tvb(30, 1))
    fi:add(fm.l1, tvb(30, 1))
    fi:add(fm.l2, tvb(30, 1))
    local fri = fi:add(fm.flags_reserved, tvb(30, 1))
    local li = t:add(fm.level, tvb(31, 1))
    local qmi = t:add(fm.q_min, tvb(32, 4))
    local qvi = t:add(fm.q_val, tvb(36, 4))
    t:add(fm.t, tvb(40, 4))
    local cci = t:add(fm.cc, tvb(44, 2))
    local eci = t:add(fm.ectn_combined, tvb(46, 2))
    if u16(tvb, 44) == TRACE_NONE then
        cci:append_text(" (none)")
    end
    if u16(tvb, 46) == TRACE_NONE then
        eci:append_text(" (none)")
    end
    if tvb(32, 4):int() == -1 then
        qmi:append_text(" (none)")
    end
    if tvb(36, 4):int() == -1 then
        qvi:append_text(" (none)")
    end

    if hlen ~= TRACE_META_LEN then
        err(hi, "bad_len", "got " .. hlen .. ", want " .. TRACE_META_LEN)
    end
    if trace_point_names[point] == nil then
        err(pi, "bad_point", "point " .. point)
    end
    if port_kind_names[kind] == nil then
        err(ki, "bad_port_kind", "kind " .. kind)
    end
    if decision ~= TRACE_NONE and route_ctr_names[decision] == nil then
        err(di, "bad_counter", "decision " .. decision)
    end
    if trigger ~= TRACE_NONE and route_ctr_names[trigger] == nil then
        err(tri, "bad_counter", "trigger " .. trigger)
    end
    if point == TRACE_DROP and drop_names[drop] == nil then
        err(dri, "bad_drop", "drop record with reason " .. drop)
    elseif point ~= TRACE_DROP and drop ~= TRACE_NONE then
        err(dri, "bad_drop", "reason " .. drop .. " on a " .. name_of(trace_point_names, point) ..
            " record")
    end
    if band(flags, bit32.bnot(TRACE_F_ALL)) ~= 0 then
        err(fri, "reserved", string.format("flags 0x%02x", flags))
    end
    if level ~= LEVEL_NONE and lia_level_names[level] == nil then
        err(li, "bad_level", "level " .. level)
    end

    local summary = string.format("%s r%u p%u vc %u", name_of(trace_point_names, point), router,
        port, vc)
    if point == TRACE_DROP then
        summary = summary .. " " .. name_of(drop_vs, drop)
    end
    if decision ~= TRACE_NONE then
        summary = summary .. " " .. name_of(route_ctr_names, decision)
        if trigger ~= TRACE_NONE then
            summary = summary .. "/" .. name_of(route_ctr_names, trigger)
        end
    end
    t:append_text(", " .. summary)

    local called = false
    if hlen ~= TRACE_META_LEN then
        -- where the frame starts is not known
    elseif rlen < TRACE_META_LEN + ETH_LEN then
        err(t, "truncated", (rlen - TRACE_META_LEN) .. " bytes after the metadata header, " ..
            "shorter than an Ethernet header")
    elseif clen < TRACE_META_LEN + ETH_LEN then
        t:add_proto_expert_info(ef_data_snap, "frame cut by the snap length before the end " ..
            "of its Ethernet header")
    else
        pinfo.cols.info = ""
        call_eth(tvb(TRACE_META_LEN):tvb(), pinfo, tree, rlen - clen)
        called = true
    end
    if #errs > 0 then
        summary = summary .. "; malformed: " .. table.concat(errs, ",")
    end
    if called then
        pinfo.cols.info:prepend("[" .. summary .. "] ")
    else
        pinfo.cols.info = "[" .. summary .. "]"
    end
    return clen
end

-- ---------------------------------------------------------------------------------------------
-- BUNDLE (0x88B7): control frames of one sender in one Ethernet frame, a container of the link
-- layer (dfly-switch, link.bundle). Each record is a control frame's bytes after its EtherType
-- and is handed to the control dissector as such: its fields are dfly.ctrl.* as in a frame of
-- its own. The framing checks are dfly_wire_bundle_open()'s, in its order.

local p_bundle = Proto("dfly.bundle", "Dragonfly fabric control bundle")
local fbu = {
    version = ProtoField.uint8("dfly.bundle.version", "Version", base.DEC),
    reserved = ProtoField.uint8("dfly.bundle.reserved", "Reserved", base.HEX),
    n = ProtoField.uint16("dfly.bundle.n", "Records", base.DEC),
    padding = ProtoField.bytes("dfly.bundle.padding", "Padding"),
}
p_bundle.fields = fbu
local ef_bundle = ProtoExpert.new("dfly.bundle.malformed", "Malformed dfly control bundle",
    expert.group.MALFORMED, expert.severity.ERROR)
p_bundle.experts = {ef_bundle}

function p_bundle.dissector(tvb, pinfo, tree)
    local rlen, clen = reported_len(tvb), tvb:len()
    pinfo.cols.protocol = "DFLY"
    local t = tree:add(p_bundle, rng(tvb, 0, nil), "Dragonfly control bundle")
    local function bad(item, name, detail)
        wire_err(item, ef_bundle, name, detail)
        pinfo.cols.info = "BUNDLE [malformed: " .. name .. "]"
        return clen
    end
    if rlen < BUNDLE_HDR_LEN then
        return bad(t, "truncated", "bundle header is " .. BUNDLE_HDR_LEN ..
            " bytes, frame has " .. rlen)
    end
    if clen < BUNDLE_HDR_LEN then
        t:add_proto_expert_info(ef_data_snap, "bundle header cut by the snap length")
        return clen
    end
    local version, resv, n = u8(tvb, 0), u8(tvb, 1), u16(tvb, 2)
    local vi = t:add(fbu.version, tvb(0, 1))
    if version ~= WIRE_VERSION then
        return bad(vi, "bad_version", "got " .. version .. ", want " .. WIRE_VERSION)
    end
    local ri = t:add(fbu.reserved, tvb(1, 1))
    local ni = t:add(fbu.n, tvb(2, 2))
    if resv ~= 0 then
        return bad(ri, "reserved", string.format("0x%02x", resv))
    end
    if n == 0 then
        return bad(ni, "bad_count", "no record")
    end
    -- the framing first, as the decoder walks it, before any record is shown
    local off = BUNDLE_HDR_LEN
    local ends = {}
    for i = 1, n do
        local left = rlen - off
        if left < CTRL_HDR_LEN then
            if left == 0 then
                return bad(ni, "bad_count", n .. " records, the frame holds " .. (i - 1))
            end
            return bad(ni, "truncated", "record " .. i .. " has " .. left .. " bytes")
        end
        if clen < off + CTRL_HDR_LEN then
            break -- cut by the snap length: shown below as far as captured
        end
        if u8(tvb, off) ~= WIRE_VERSION then
            return bad(ni, "bad_version", "record " .. i .. ": version " .. u8(tvb, off))
        end
        local rl = CTRL_HDR_LEN + u16(tvb, off + 2)
        if left < rl then
            return bad(ni, "truncated", "record " .. i .. " of " .. rl .. " bytes, " ..
                left .. " left")
        end
        off = off + rl
        ends[i] = off
    end
    local complete = #ends == n
    if complete and rlen > off and rlen > ETH_MIN_BODY then
        return bad(ni, "bad_count", (rlen - off) .. " bytes after the records, beyond the " ..
            "Ethernet padding")
    end
    if complete and off > BUNDLE_MAX then
        return bad(ni, "bad_count", off .. " bytes, more than " .. BUNDLE_MAX)
    end
    local counts, order = {}, {}
    local src
    local start = BUNDLE_HDR_LEN
    for i = 1, #ends do
        local e = ends[i]
        if clen < e then
            t:add_proto_expert_info(ef_data_snap, "record " .. i .. " cut by the snap length")
            break
        end
        local typ = u8(tvb, start + 1)
        src = src or u32(tvb, start + 4)
        local tn = name_of(ctrl_names, typ)
        if counts[tn] == nil then
            order[#order + 1] = tn
            counts[tn] = 0
        end
        counts[tn] = counts[tn] + 1
        p_ctrl.dissector(tvb(start, e - start):tvb(), pinfo, t)
        start = e
    end
    if complete and rlen > off and clen > off then
        t:add(fbu.padding, rng(tvb, off, nil))
    end
    local parts = {}
    for _, tn in ipairs(order) do
        parts[#parts + 1] = counts[tn] > 1 and (tn .. " x" .. counts[tn]) or tn
    end
    t:append_text(", " .. n .. " records")
    pinfo.cols.info = string.format("BUNDLE r%s, %u records: %s", tostring(src or "?"), n,
        table.concat(parts, ", "))
    return clen
end

-- ---------------------------------------------------------------------------------------------
-- Registration

local ethertype = DissectorTable.get("ethertype")
ethertype:add(ETHERTYPE_DATA, p_data)
ethertype:add(ETHERTYPE_CTRL, p_ctrl)
ethertype:add(ETHERTYPE_BUNDLE, p_bundle)
DissectorTable.get("wtap_encap"):add(wtap_encaps.USER0, p_meta)
