#!/usr/bin/env python3
"""Prints a capture of __consumer_offsets records (testdata/history/real-4.4.0/*.jsonl) one
record a line: offset, UTC time, record type, group, [member id prefix | topic partition], and
the decoded value (streams-group types 17-23) or TOMBSTONE.

Test tooling, written straight from Kafka 4.4.0's group-coordinator schemas
(common/message/StreamsGroup*.json in kafka-group-coordinator-4.4.0.jar), independent of the
product's decoder so that a mistake in one does not hide the same mistake in the other. The
*.decoded.txt files beside the captures are its output.

Usage: python3 e2e/tooling/decode_offsets.py testdata/history/real-4.4.0/lifecycle.jsonl
"""
import json,base64,struct,sys,datetime
class R:
    def __init__(s,b): s.b=b; s.i=0
    def i8(s): v=struct.unpack_from('>b',s.b,s.i)[0]; s.i+=1; return v
    def i16(s): v=struct.unpack_from('>h',s.b,s.i)[0]; s.i+=2; return v
    def u16(s): v=struct.unpack_from('>H',s.b,s.i)[0]; s.i+=2; return v
    def i32(s): v=struct.unpack_from('>i',s.b,s.i)[0]; s.i+=4; return v
    def i64(s): v=struct.unpack_from('>q',s.b,s.i)[0]; s.i+=8; return v
    def uv(s):
        r=0;sh=0
        while True:
            c=s.b[s.i]; s.i+=1; r|=(c&0x7f)<<sh; sh+=7
            if c<0x80: return r
    def str(s): n=s.i16(); v=s.b[s.i:s.i+n].decode(); s.i+=n; return v
    def cstr(s):
        n=s.uv()-1
        if n<0: return None
        v=s.b[s.i:s.i+n].decode(); s.i+=n; return v
    def carr(s,f):
        n=s.uv()-1
        if n<0: return None
        return [f() for _ in range(n)]
    def tags(s):
        n=s.uv(); out={}
        for _ in range(n):
            t=s.uv(); l=s.uv(); out[t]=s.b[s.i:s.i+l]; s.i+=l
        return out
def taskids(r, withtags=False):
    def one():
        sid=r.cstr(); parts=r.carr(r.i32); tg=r.tags()
        d=f"{sid}:{parts}"
        if tg: 
            if 0 in tg:
                rr=R(tg[0]); d+=f" epochs={rr.carr(rr.i32)}"
        return d
    return r.carr(one)
def dec(t, v):
    r=R(v); ver=r.i16(); d={'v':ver}
    if t==17:
        d['epoch']=r.i32(); d['hash']=r.i64(); tg=r.tags()
        for k,b in tg.items():
            rr=R(b)
            if k==0: d['validatedTopoEpoch']=rr.i32()
            elif k==1:
                def kv(): k_=rr.cstr(); v_=rr.cstr(); rr.tags(); return f"{k_}={v_}"
                d['lastAssignmentConfigs']=rr.carr(kv)
            elif k==2: d['storedDescEpoch']=rr.i32()
            elif k==3: d['failedDescEpoch']=rr.i32()
            else: d[f'tag{k}']=b.hex()
    elif t==19:
        d['instance']=r.cstr(); d['rack']=r.cstr(); d['client']=r.cstr(); d['host']=r.cstr(); d['rebalTO']=r.i32(); d['topoEpoch']=r.i32(); d['process']=r.cstr()
        n=r.i8()
        if n>=0: h=r.cstr(); p=r.u16(); r.tags(); d['endpoint']=f"{h}:{p}"
        else: d['endpoint']=None
        def kv(): k_=r.cstr(); v_=r.cstr(); r.tags(); return f"{k_}={v_}"
        d['tags']=r.carr(kv); tg=r.tags(); 
        if tg: d['xtags']={k:b.hex() for k,b in tg.items()}
    elif t==20:
        d['assignEpoch']=r.i32(); tg=r.tags()
        if 0 in tg: d['assignTs']=R(tg[0]).i64()
    elif t==21:
        d['active']=taskids(r); d['standby']=taskids(r); d['warmup']=taskids(r); r.tags()
    elif t==22:
        d['memberEpoch']=r.i32(); d['prevEpoch']=r.i32(); d['state']=r.i8()
        for n in ['active','standby','warmup','activePendRev','standbyPendRev','warmupPendRev']: d[n]=taskids(r)
        r.tags()
    elif t==23:
        d['epoch']=r.i32()
        def topic():
            n=r.cstr(); p=r.i32(); rf=r.i16()
            def cfg():
                k_=r.cstr(); v_=r.cstr(); r.tags(); return f"{k_}={v_}"
            cf=r.carr(cfg); r.tags()
            return f"{n}/partitions={p}/rf={rf}" + (f"/{cf}" if cf else "")
        def cgroup():
            a_=r.carr(r.i16); b_=r.carr(r.i16); c_=r.carr(r.i16); r.tags()
            return dict(src=a_,regex=b_,repsrc=c_)
        def sub():
            sid=r.cstr(); src=r.carr(r.cstr); rx=r.carr(r.cstr); cl=r.carr(topic); rs=r.carr(r.cstr); rsrc=r.carr(topic)
            cg=r.carr(cgroup); r.tags()
            d_=dict(id=sid,src=src,changelog=cl,repsink=rs,repsrc=rsrc)
            if rx: d_['regex']=rx
            if cg: d_['copartition']=cg
            return d_
        d['subs']=r.carr(sub); r.tags()
    else:
        d['raw']=v.hex()
    if r.i!=len(v): d['LEFTOVER']=len(v)-r.i
    return d
for line in open(sys.argv[1]):
    o=json.loads(line); k=base64.b64decode(o['key']); kr=R(k); t=kr.i16(); g=kr.str()
    rest=[]
    if t in (19,21,22): rest.append(kr.str()[:8])
    if t==1: rest.append(kr.str()); rest.append(kr.i32())
    ts=datetime.datetime.fromtimestamp(o['timestamp_ms']/1000, datetime.timezone.utc).strftime('%H:%M:%S.%f')[:-3]
    val=o['value']
    d='TOMBSTONE' if val is None else (dec(t,base64.b64decode(val)) if t>=17 else 'commit')
    print(o['offset'],ts,t,g,*rest,d)
